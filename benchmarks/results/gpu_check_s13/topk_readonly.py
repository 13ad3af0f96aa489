"""The GPU top-k on a read-only matrix (as a memory map is) against the CPU's, warnings raised as errors.
Run on the device machine from the repository root: `python3 benchmarks/results/gpu_check_s13/topk_readonly.py`
(it needs numpy and torch with CUDA only; the output of the run at 21ef7ef is topk_readonly.txt)."""

import warnings

import numpy as np

from ari.base.topk import TopK

warnings.simplefilter("error")
rng = np.random.default_rng(0)
m = rng.standard_normal((5000, 384)).astype(np.float32)
m /= np.linalg.norm(m, axis=1, keepdims=True)
m.setflags(write=False)
q = m[:20]
cs, ci = TopK(m, "cpu").search(q, 10)
gs, gi = TopK(m, "cuda").search(q, 10)
print("same ids:", bool((ci == gi).all()), "max score diff:", float(np.abs(cs - gs).max()))
import torch  # noqa: E402

print(torch.__version__, torch.cuda.get_device_name(0))
