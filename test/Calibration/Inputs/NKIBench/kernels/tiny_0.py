# A kernel written for Walrus's tests in the form the Neuron compiler prints
# NKI kernels (NKIBench's baseline kernels): y = x @ w * 0.5 minus each row's
# mean, for x of 200 x 256 and w of 256 x 512. It exercises what
# examples/calibration/nki_trace.py reads: affine loops, index grids, a
# partition mask (the last row tile has 72 rows), identity-matmul
# transposes, a PSUM accumulation over K, copies, tensor_scalar by a
# constant, tensor_reduce and loop_reduce, a per-partition operand.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def kernel(v1, v2):
    v3 = nl.ndarray((200, 512), dtype=np.float32, buffer=nl.shared_hbm)
    v4 = nl.shared_constant(np.identity(128, dtype=np.float32))
    v5 = nl.ndarray((nl.par_dim(128), 128), dtype=np.float32, buffer=nl.sbuf)
    v6 = nl.ndarray((2, nl.par_dim(128), 512), dtype=np.float32, buffer=nl.sbuf)
    v7 = nl.ndarray((2, 2, nl.par_dim(128), 128), dtype=np.float32, buffer=nl.sbuf)
    v8 = nl.zeros((2, 2, nl.par_dim(128), 128), dtype=np.float32, buffer=nl.psum)
    v9 = nl.ndarray((2, 2, nl.par_dim(128), 128), dtype=np.float32, buffer=nl.sbuf)
    v10 = nl.zeros((2, 2, nl.par_dim(128), 256), dtype=np.float32, buffer=nl.psum)
    v11 = nl.ndarray((2, 2, nl.par_dim(128), 256), dtype=np.float32, buffer=nl.sbuf)
    v12 = nl.ndarray((2, 2, nl.par_dim(128), 1), dtype=np.float32, buffer=nl.sbuf)
    v13 = nl.ndarray((2, nl.par_dim(128), 1), dtype=np.float32, buffer=nl.sbuf)
    v14 = nl.ndarray((2, nl.par_dim(128), 512), dtype=np.float32, buffer=nl.sbuf)
    v5[nl.arange(128)[:, None], nl.arange(128)[None, :]] = nl.load(v4[nl.arange(128)[:, None], nl.arange(128)[None, :]], dtype=np.float32, mask=None)
    for i0 in nl.affine_range(2):
        v6[i0, nl.arange(128)[:, None], nl.arange(512)[None, :]] = nl.load(v2[128 * i0 + nl.arange(128)[:, None], nl.arange(512)[None, :]], dtype=np.float32, mask=None)
        ' end loop i0 '
    for i1 in nl.affine_range(2):
        for i2 in nl.affine_range(2):
            v7[i1, i2, nl.arange(128)[:, None], nl.arange(128)[None, :]] = nl.load(v1[128 * i1 + nl.arange(128)[:, None], 128 * i2 + nl.arange(128)[None, :]], dtype=np.float32, mask=-128 * i1 + -1 * nl.arange(128)[:, None] + 199 >= 0)
            v8[i1, i2, nl.arange(128)[:, None], nl.arange(128)[None, :]] = nisa.nc_matmul(v7[i1, i2, nl.arange(128)[:, None], nl.arange(128)[None, :]], v5[nl.arange(128)[:, None], nl.arange(128)[None, :]], is_stationary_onezero=False, is_moving_onezero=True, mask=None, is_transpose=True)
            v9[i1, i2, nl.arange(128)[:, None], nl.arange(128)[None, :]] = nl.copy(v8[i1, i2, nl.arange(128)[:, None], nl.arange(128)[None, :]], dtype=np.float32, mask=None)
            ' end loop i2 '
        for i3 in nl.affine_range(2):
            for i4 in nl.affine_range(2):
                v10[i1, i3, nl.arange(128)[:, None], nl.arange(256)[None, :]] += nisa.nc_matmul(v9[i1, i4, nl.arange(128)[:, None], nl.arange(128)[None, :]], v6[i4, nl.arange(128)[:, None], 256 * i3 + nl.arange(256)[None, :]], is_stationary_onezero=False, is_moving_onezero=False, mask=None)
                ' end loop i4 '
            v11[i1, i3, nl.arange(128)[:, None], nl.arange(256)[None, :]] = nisa.tensor_scalar(data=v10[i1, i3, nl.arange(128)[:, None], nl.arange(256)[None, :]], op0=nl.multiply, operand0=np.dtype(np.float32).type(0.5), reverse0=False, dtype=np.float32, mask=None, engine=nki.isa.unknown_engine)
            v12[i1, i3, nl.arange(128)[:, None], 0] = nisa.tensor_reduce(nl.add, data=v11[i1, i3, nl.arange(128)[:, None], nl.arange(256)[None, :]], mask=None, axis=[1], dtype=np.float32, negate=False)
            v13[i1, nl.arange(128)[:, None], 0] = nl.loop_reduce(v12[i1, i3, nl.arange(128)[:, None], 0], op=np.add, loop_indices=[i3], mask=None, dtype=np.float32)
            ' end loop i3 '
        v13[i1, nl.arange(128)[:, None], 0] = nisa.tensor_scalar(data=v13[i1, nl.arange(128)[:, None], 0], op0=nl.multiply, operand0=np.dtype(np.float32).type(0.001953125), reverse0=False, dtype=np.float32, mask=None, engine=nki.isa.unknown_engine)
        for i5 in nl.affine_range(2):
            v14[i1, nl.arange(128)[:, None], 256 * i5 + nl.arange(256)[None, :]] = nl.subtract(v11[i1, i5, nl.arange(128)[:, None], nl.arange(256)[None, :]], v13[i1, nl.arange(128)[:, None], 0], mask=None, dtype=np.float32)
            ' end loop i5 '
        nl.store(v3[128 * i1 + nl.arange(128)[:, None], nl.arange(512)[None, :]], value=v14[i1, nl.arange(128)[:, None], nl.arange(512)[None, :]], mask=-128 * i1 + -1 * nl.arange(128)[:, None] + 199 >= 0)
        ' end loop i1 '
    return v3
