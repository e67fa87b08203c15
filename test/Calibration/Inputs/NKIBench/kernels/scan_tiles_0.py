import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def kernel(x, d, b):
    # out = sum over states s of h_s, h_s[t] = exp(x[t] * d[s]) * h_s[t - 1]
    # + b[s, t] along each row: a selective scan of mamba's form.
    rows, steps = x.shape
    states = d.shape[1]
    out = nl.ndarray((rows, steps), dtype=x.dtype, buffer=nl.shared_hbm)
    acc = nl.zeros((rows // 128, nl.par_dim(128), steps), dtype=x.dtype)
    for s in nl.affine_range(states):
        for r in nl.affine_range(rows // 128):
            x_i = nl.load(x[r * 128:(r + 1) * 128, 0:steps])
            d_i = nl.load(d[r * 128:(r + 1) * 128, s])
            decay = nki.isa.activation(op=nl.exp, data=x_i, scale=d_i)
            b_i = nl.load(b[s:s + 1, 0:steps])
            h = nki.isa.tensor_tensor_scan(decay, b_i.broadcast_to((128, steps)), initial=0,
                                           op0=np.multiply, op1=np.add)
            acc[r, 0:128, 0:steps] += h
    for r in nl.affine_range(rows // 128):
        nl.store(out[r * 128:(r + 1) * 128, 0:steps], acc[r, 0:128, 0:steps])
    return out
