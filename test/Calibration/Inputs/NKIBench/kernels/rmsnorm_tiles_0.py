import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def kernel(x, w, eps, g):
    # out = (x / rms(x) * g) @ w, written with the whole-tile API
    # (nl.matmul, nl.sum, broadcast_to) as NKIBench's add_rmsnorm_matmul is.
    rows, width = x.shape
    columns = w.shape[1]
    out = nl.ndarray((rows, columns), dtype=x.dtype, buffer=nl.shared_hbm)
    ip = nl.arange(128)[:, None]
    iw = nl.arange(width)[None, :]
    ic = nl.arange(512)[None, :]
    gain = nl.load(g.reshape((1, width))[nl.arange(1)[:, None], iw])
    for r in nl.affine_range(rows // 128):
        tile = nl.load(x[r * 128 + ip, iw])
        mean = nl.sum(nl.square(tile), axis=[1]) / width
        scale = nl.rsqrt(nl.add(mean, eps))
        normed = nl.multiply(tile, scale)
        normed[...] = nl.multiply(normed, gain.broadcast_to((128, width)))
        for c in nl.affine_range(columns // 512):
            acc = nl.zeros((128, 512), nl.float32, buffer=nl.psum)
            for k in nl.affine_range(width // 128):
                w_tile = nl.load(w[k * 128:(k + 1) * 128, c * 512:(c + 1) * 512])
                acc += nl.matmul(normed[:, k * 128:(k + 1) * 128], w_tile)
            nl.store(out[r * 128 + ip, c * 512 + ic], value=nl.copy(acc, dtype=out.dtype))
    return out
