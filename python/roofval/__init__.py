# SPDX-License-Identifier: MIT
"""roofval from Python: the built-in performance model and validation
against measured baselines, through libroofval.so (ctypes, standard library
only).

    import roofval
    roofval.predict("i7_12700k", "matmul", (512, 512, 512))
    # {'latency_s': ..., 'energy_J': ..., 'binding': 'compute', ...}

The library is found through $ROOFVAL_LIBRARY, else beside this package's
install prefix, else ctypes.util.find_library("roofval"). Data folders are
found as roofval finds them (docs/install.md); every function takes
hardware_dir/sweep_dir/baseline_dir to override them.
"""

import csv
import ctypes
import ctypes.util
import json
import os
import shutil
import tempfile

__all__ = ["RoofvalError", "predict", "predict_batch", "predict_sweep", "validate",
           "hardware_keys", "library_version", "__version__"]


class RoofvalError(RuntimeError):
    """A libroofval call failed: code is the RV_E* code, str() the message."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def _candidates():
    env = os.environ.get("ROOFVAL_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        from . import _paths  # written by CMake at install time
        yield os.path.normpath(os.path.join(here, _paths.LIBDIR, _paths.SONAME))
    except ImportError:
        pass
    found = ctypes.util.find_library("roofval")
    if found:
        yield found


def _load():
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append(str(e))
    raise ImportError("roofval: cannot load libroofval.so (set ROOFVAL_LIBRARY): "
                      + ("; ".join(tried) or "not found"))


_lib = _load()


class _Dims(ctypes.Structure):
    _fields_ = [("dim", ctypes.c_uint64 * 3)]


class _Cost(ctypes.Structure):
    _fields_ = [("latency_s", ctypes.c_double), ("energy_J", ctypes.c_double),
                ("binding", ctypes.c_int)]


class _SweepItem(ctypes.Structure):
    _fields_ = [("shape", _Dims), ("dtype", ctypes.c_char_p)]


_VALIDATE_OPTS_VERSION = 1  # RV_VALIDATE_OPTS_VERSION of roofval/validate.h


class _ValidateOpts(ctypes.Structure):
    # rv_validate_opts (roofval/validate.h), every field in order: the
    # library reads them all.
    _fields_ = [("version", ctypes.c_uint),
                ("hw", ctypes.c_char_p), ("op", ctypes.c_char_p),
                ("purpose", ctypes.c_char_p), ("predictions", ctypes.c_char_p),
                ("models", ctypes.c_void_p), ("n_models", ctypes.c_size_t),
                ("against", ctypes.c_char_p), ("regression_points", ctypes.c_double),
                ("exclude_flagged", ctypes.c_int),
                ("repeat_baseline_dirs", ctypes.POINTER(ctypes.c_char_p)),
                ("n_repeat_baseline_dirs", ctypes.c_size_t)]


_ENOTSUP = -2
_P = ctypes.c_void_p
_lib.rv_version.restype = ctypes.c_char_p
_lib.rv_error_last.restype = ctypes.c_char_p
_lib.rv_data_open.argtypes = [ctypes.POINTER(_P), ctypes.c_char_p, ctypes.c_char_p,
                              ctypes.c_char_p]
_lib.rv_data_free.argtypes = [_P]
_lib.rv_data_free.restype = None
_lib.rv_data_hw.argtypes = [_P, ctypes.c_char_p, ctypes.POINTER(_P)]
_lib.rv_data_hw_keys.argtypes = [_P, ctypes.POINTER(ctypes.POINTER(ctypes.c_char_p)),
                                 ctypes.POINTER(ctypes.c_size_t)]
_lib.rv_strings_free.argtypes = [ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t]
_lib.rv_strings_free.restype = None
_lib.rv_data_sweep.argtypes = [_P, ctypes.c_char_p, ctypes.c_char_p,
                               ctypes.POINTER(ctypes.POINTER(_SweepItem)),
                               ctypes.POINTER(ctypes.c_size_t)]
_lib.rv_hw_default_dtype.argtypes = [_P]
_lib.rv_hw_default_dtype.restype = ctypes.c_char_p
_lib.rv_binding_name.argtypes = [ctypes.c_int]
_lib.rv_binding_name.restype = ctypes.c_char_p
_lib.rv_hw_predict_batch.argtypes = [_P, ctypes.c_char_p, ctypes.c_char_p,
                                     ctypes.POINTER(_Dims), ctypes.c_size_t,
                                     ctypes.POINTER(_Cost)]
_lib.rv_data_validate.argtypes = [_P, ctypes.POINTER(_ValidateOpts), ctypes.c_char_p,
                                  ctypes.POINTER(ctypes.c_void_p),
                                  ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_int)]
_libc = ctypes.CDLL(None)
_libc.free.argtypes = [ctypes.c_void_p]
_libc.free.restype = None

__version__ = _lib.rv_version().decode()


def library_version():
    """The version of the loaded libroofval (the same as __version__)."""
    return _lib.rv_version().decode()


def _b(s):
    return None if s is None else os.fsencode(s) if not isinstance(s, bytes) else s


def _check(rc):
    if rc < 0:
        raise RoofvalError(rc, _lib.rv_error_last().decode(errors="replace"))
    return rc


class _Data:
    """An open data layout (rv_data), freed on exit."""

    def __init__(self, hardware_dir=None, sweep_dir=None, baseline_dir=None):
        self.p = _P()
        _check(_lib.rv_data_open(ctypes.byref(self.p), _b(hardware_dir), _b(sweep_dir),
                                 _b(baseline_dir)))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _lib.rv_data_free(self.p)
        self.p = None

    def __del__(self):
        if getattr(self, "p", None) and _lib is not None:
            _lib.rv_data_free(self.p)
            self.p = None

    def hw(self, key):
        h = _P()
        _check(_lib.rv_data_hw(self.p, _b(key), ctypes.byref(h)))
        return h


def _shape(op, shape):
    dims = [int(x) for x in (shape.lower().split("x") if isinstance(shape, str) else shape)]
    if not 1 <= len(dims) <= 3:
        raise ValueError("roofval: shape %r: give 1 (vector_add) or 3 dimensions" % (shape,))
    return _Dims((ctypes.c_uint64 * 3)(*(dims + [0] * (3 - len(dims)))))


def _result(cost):
    return {"latency_s": cost.latency_s, "energy_J": cost.energy_J,
            "binding": _lib.rv_binding_name(cost.binding).decode()}


_cache = {}


def _cached(hardware_dir=None, sweep_dir=None, baseline_dir=None):
    """The rv_data of these folders, opened once per process (profiles and
    sweeps are then read once, so repeated predictions cost the model only)."""
    key = (hardware_dir, sweep_dir, baseline_dir)
    if key not in _cache:
        _cache[key] = _Data(*key)
    return _cache[key]


def predict_batch(hw, op, shapes, dtype=None, **dirs):
    """The built-in model's predictions for a list of shapes of one op and
    dtype (None: the profile's default): a list of dicts as predict(), in
    the order of shapes. Profiles are loaded once per process."""
    h = _cached(**dirs).hw(hw)
    n = len(shapes)
    arr = (_Dims * max(n, 1))(*[_shape(op, s) for s in shapes])
    out = (_Cost * max(n, 1))()
    _check(_lib.rv_hw_predict_batch(h, _b(op), _b(dtype), arr, n, out))
    used = dtype or _lib.rv_hw_default_dtype(h).decode()
    return [dict(hardware=hw, op=op, shape=_shape_text(s), dtype=used, **_result(out[i]))
            for i, s in enumerate(shapes)]


def _shape_text(shape):
    dims = [int(x) for x in (shape.lower().split("x") if isinstance(shape, str) else shape)]
    return "x".join(map(str, dims))


def predict(hw, op, shape, dtype=None, **dirs):
    """The built-in model's prediction for one call of op ("matmul", "linear",
    "vector_add") on shape (a tuple (M, K, N), (B, IN, OUT) or (N,), or the
    text "MxKxN") in dtype (None: the profile's default) on the profile hw:
    {"hardware", "op", "shape", "dtype", "latency_s", "energy_J", "binding"}.
    Raises RoofvalError."""
    return predict_batch(hw, op, [shape], dtype, **dirs)[0]


def predict_sweep(hw, op, purpose="validation", **dirs):
    """The built-in model's predictions for every entry of the sweep
    <op>_<purpose>.json in a dtype the profile has: a list of dicts as
    predict(), in sweep order."""
    d = _cached(**dirs)
    h = d.hw(hw)
    items = ctypes.POINTER(_SweepItem)()
    n = ctypes.c_size_t()
    _check(_lib.rv_data_sweep(d.p, _b(op), _b(purpose), ctypes.byref(items),
                              ctypes.byref(n)))
    try:
        rows = []
        for i in range(n.value):
            it = items[i]
            dims = list(it.shape.dim)[: 1 if op == "vector_add" else 3]
            out = _Cost()
            rc = _lib.rv_hw_predict_batch(h, _b(op), it.dtype, ctypes.byref(it.shape), 1,
                                          ctypes.byref(out))
            if rc == _ENOTSUP:  # a dtype the profile lacks
                continue
            _check(rc)
            rows.append(dict(hardware=hw, op=op, shape="x".join(map(str, dims)),
                             dtype=it.dtype.decode(), **_result(out)))
        return rows
    finally:
        _libc.free(ctypes.cast(items, ctypes.c_void_p))


def hardware_keys(**dirs):
    """The keys of the profiles in the hardware folder, sorted."""
    with _Data(**dirs) as d:
        keys = ctypes.POINTER(ctypes.c_char_p)()
        n = ctypes.c_size_t()
        _check(_lib.rv_data_hw_keys(d.p, ctypes.byref(keys), ctypes.byref(n)))
        try:
            return [keys[i].decode() for i in range(n.value)]
        finally:
            _lib.rv_strings_free(keys, n)


_CSV_FIELDS = ["hardware", "op", "shape", "dtype", "latency_s", "energy_j"]


def _write_predictions(f, predictions):
    """predictions (dicts as predict() returns, energy as energy_J or
    energy_j, shape as text or a tuple) as a predictions CSV."""
    fields = _CSV_FIELDS + (["regime"] if any(r.get("regime") for r in predictions) else [])
    w = csv.writer(f, lineterminator="\n")
    w.writerow(fields)
    for r in predictions:
        row = dict(r)
        row["shape"] = _shape_text(row["shape"])
        energy = row.get("energy_j", row.get("energy_J"))
        row["energy_j"] = "" if energy is None else repr(float(energy))
        row["latency_s"] = repr(float(row["latency_s"]))
        w.writerow([row.get(k) or "" for k in fields])


def validate(predictions=None, baselines=None, hw=None, op=None, purpose=None, name="python",
             **dirs):
    """Validates a model against the baselines (a folder; None: the default)
    and returns the JSON report (schema roofval.report/1) as a dict.
    predictions: None for the built-in model, a predictions CSV path, or a
    list of dicts with the CSV's columns (hardware, op, shape, dtype,
    latency_s, energy_j or energy_J, regime: what predict() returns will
    do); see docs/predictions-csv.md. hw, op and
    purpose narrow what is validated (None: everything); name is the model's
    name in the report when predictions is a list. Raises RoofvalError."""
    tmp = None
    if isinstance(predictions, (list, tuple)):
        tmp = tempfile.mkdtemp(prefix="roofval-")
        path = os.path.join(tmp, name + ".csv")
        with open(path, "w", newline="", encoding="utf-8") as f:
            _write_predictions(f, predictions)
        predictions = path
    try:
        with _Data(dirs.get("hardware_dir"), dirs.get("sweep_dir"), baselines) as d:
            opts = _ValidateOpts(_VALIDATE_OPTS_VERSION, _b(hw), _b(op), _b(purpose), _b(predictions))
            text = ctypes.c_void_p()
            length = ctypes.c_size_t()
            passed = ctypes.c_int()
            _check(_lib.rv_data_validate(d.p, ctypes.byref(opts), b"json", ctypes.byref(text),
                                         ctypes.byref(length), ctypes.byref(passed)))
            try:
                return json.loads(ctypes.string_at(text, length.value).decode())
            finally:
                _libc.free(text)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
