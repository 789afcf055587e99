"""Error of float results in ulps, for the vISA float library tests (OpenCL C 7.4 ulp limits)."""

from __future__ import annotations

import numpy as np


def ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """|got - want| in ulps of the float nearest to want (0 where both are the same value, NaN or inf)."""
    with np.errstate(all="ignore"):
        w32 = want.astype(np.float32)
        ulp = np.spacing(np.minimum(np.abs(w32), np.float32(np.finfo(np.float32).max))).astype(np.float64)
        err = np.abs(got.astype(np.float64) - want) / ulp
    same = (got == w32) | (np.isnan(got) & np.isnan(want))
    err[same] = 0.0
    err[np.isnan(err)] = np.inf
    return err
