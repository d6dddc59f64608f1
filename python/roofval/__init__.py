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

The package is safe to use from several threads at once (threading): the
functions share one libroofval data handle per set of folders, which
libroofval allows, and release the GIL while the library works.

Arguments are checked before they reach the library: a string with a NUL
character, a shape with the wrong number of dimensions for its op or a
dimension that is not an integer of 64 bits raise ValueError or TypeError
(never a prediction of another shape).
"""

import csv
import ctypes
import ctypes.util
import json
import operator
import os
import re
import shutil
import tempfile
import threading

__all__ = ["RoofvalError", "predict", "predict_batch", "predict_sweep", "validate",
           "hardware_keys", "library_version", "__version__"]


class RoofvalError(RuntimeError):
    """A libroofval call failed: code is the RV_E* code, str() the message."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class RoofvalValueError(RoofvalError, ValueError):
    """An argument libroofval refused (a shape, an op): both a RoofvalError
    with its code and a ValueError."""


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
_lib.rv_dims_parse.argtypes = [ctypes.POINTER(_Dims), ctypes.c_char_p, ctypes.c_char_p]
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


def _b(s, what="an argument"):
    """s as the bytes libroofval takes (None stays None): a str, bytes or
    os.PathLike, without a NUL character (C would end the string there)."""
    if s is None:
        return None
    if isinstance(s, bytes):
        b = s
    elif isinstance(s, (str, os.PathLike)):
        b = os.fsencode(s)
    else:
        raise TypeError("roofval: %s must be a str, not %s" % (what, type(s).__name__))
    if b"\0" in b:
        raise ValueError("roofval: %s %r holds a NUL character; give the text without it"
                         % (what, s))
    return b


def _key(s, what="hw"):
    """A required string argument (a hardware key, an op)."""
    if s is None:
        raise TypeError("roofval: %s is None; give a str (roofval.hardware_keys() lists "
                        "the hardware keys)" % what)
    return _b(s, what)


def _message():
    return _lib.rv_error_last().decode(errors="replace")


def _check(rc):
    if rc < 0:
        raise RoofvalError(rc, _message())
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
        _check(_lib.rv_data_hw(self.p, _key(key), ctypes.byref(h)))
        return h


def _shape_text(shape):
    """A shape (text "MxKxN", or a sequence of integers) as roofval writes it."""
    if isinstance(shape, (str, bytes)):
        text = shape.decode(errors="replace") if isinstance(shape, bytes) else shape
        if "\0" in text:
            raise ValueError("roofval: shape %r holds a NUL character" % (shape,))
        return text.strip().lower()
    try:
        dims = list(shape)
    except TypeError:
        raise TypeError("roofval: shape %r: give a tuple of integers, (M, K, N), (B, IN, "
                        "OUT) or (N,), or the text 'MxKxN'" % (shape,)) from None
    for d in dims:
        if isinstance(d, bool):
            raise TypeError("roofval: shape %r: dimension %r is a bool, not an integer"
                            % (shape, d))
        try:
            operator.index(d)
        except TypeError:
            raise TypeError("roofval: shape %r: dimension %r is a %s, not an integer"
                            % (shape, d, type(d).__name__)) from None
    return "x".join(str(operator.index(d)) for d in dims)


def _shape(op, shape):
    """The rv_dims of shape for op, parsed by libroofval (the number of
    dimensions the op takes, each within its range): RoofvalValueError
    (a ValueError) when it is not one."""
    text = _shape_text(shape)
    dims = _Dims()
    rc = _lib.rv_dims_parse(ctypes.byref(dims), _key(op, "op"), _b(text, "shape"))
    if rc < 0:
        raise RoofvalValueError(rc, _message())
    return dims


def _result(cost):
    return {"latency_s": cost.latency_s, "energy_J": cost.energy_J,
            "binding": _lib.rv_binding_name(cost.binding).decode()}


_cache = {}
_cache_lock = threading.Lock()


def _cached(hardware_dir=None, sweep_dir=None, baseline_dir=None):
    """The rv_data of these folders, opened once per process (profiles and
    sweeps are then read once, so repeated predictions cost the model only)
    and shared by every thread (libroofval allows it)."""
    key = (hardware_dir, sweep_dir, baseline_dir)
    with _cache_lock:
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
    _check(_lib.rv_hw_predict_batch(h, _key(op, "op"), _b(dtype, "dtype"), arr, n, out))
    used = dtype or _lib.rv_hw_default_dtype(h).decode()
    return [dict(hardware=hw, op=op, shape=_shape_text(s), dtype=used, **_result(out[i]))
            for i, s in enumerate(shapes)]


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
    _check(_lib.rv_data_sweep(d.p, _key(op, "op"), _key(purpose, "purpose"), ctypes.byref(items),
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
    name in the report when predictions is a list: a name, not a path (no
    '/', not starting with '.'). Raises RoofvalError, ValueError for a
    name that is not one."""
    tmp = None
    if isinstance(predictions, (list, tuple)):
        _model_name(name)
    try:
        if isinstance(predictions, (list, tuple)):
            tmp = tempfile.mkdtemp(prefix="roofval-")
            path = os.path.join(tmp, name + ".csv")
            with open(path, "w", newline="", encoding="utf-8") as f:
                _write_predictions(f, predictions)
            predictions = path
        with _Data(dirs.get("hardware_dir"), dirs.get("sweep_dir"), baselines) as d:
            opts = _ValidateOpts(_VALIDATE_OPTS_VERSION, _b(hw, "hw"), _b(op, "op"),
                                 _b(purpose, "purpose"), _b(predictions, "predictions"))
            text = ctypes.c_void_p()
            length = ctypes.c_size_t()
            passed = ctypes.c_int()
            rc = _lib.rv_data_validate(d.p, ctypes.byref(opts), b"json", ctypes.byref(text),
                                       ctypes.byref(length), ctypes.byref(passed))
            if rc < 0:
                message = _message()
                if tmp:  # the file is gone when the caller reads this: say what it held
                    message = _without_file(message, predictions)
                raise RoofvalError(rc, message)
            try:
                return json.loads(ctypes.string_at(text, length.value).decode())
            finally:
                _libc.free(text)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def _model_name(name):
    """Checks the model name validate() gives a list of predictions (its
    file is <name>.csv in a folder of its own)."""
    if not isinstance(name, str):
        raise TypeError("roofval: name must be a str, not %s" % type(name).__name__)
    if not name or "/" in name or name.startswith(".") or "\0" in name \
            or len(os.fsencode(name)) > 200:
        raise ValueError("roofval: model name %r is not a name: give one without '/', not "
                         "starting with '.', of 1 to 200 bytes" % (name,))


def _without_file(message, path):
    """A message about the predictions CSV written from a list, naming the
    list instead: "predictions[i]" for the row of line i + 2 (after the
    header) of the file."""
    def row(m):
        line = int(m.group(1))
        return "predictions[%d]" % (line - 2) if line >= 2 else "the predictions' header"
    message = re.sub(re.escape(path) + r":(\d+)(?::\d+)?", row, message)
    return message.replace(path, "the predictions given")
