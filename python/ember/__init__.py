"""Ember from Python, shaped like upstream's ``executorch.runtime``.

.. code-block:: python

    import numpy as np
    from ember import Runtime

    program = Runtime.get().load_program("model.pte")
    forward = program.load_method("forward")
    outputs = forward.execute([np.ones((2, 3), np.float32), np.ones((2, 3), np.float32)])

Inputs: numpy arrays (or anything ``numpy.asarray`` takes), torch tensors
when torch is imported, and Python ``bool``/``int``/``float`` for scalar
inputs. Outputs: a list of numpy arrays (and Python scalars), or of torch
tensors when any input was a torch tensor. Errors from the runtime raise
:class:`EmberError` (a ``RuntimeError``) carrying Ember's message.

Every kernel and the XNNPACK delegate are built in. The README's "Python"
section lists where this differs from upstream.
"""

import os
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Set, Union

import numpy as np

from ._ember import (
    DEFAULT_BUNDLED_ATOL,
    DEFAULT_BUNDLED_RTOL,
    EmberError,
    MethodMeta,
    TensorInfo,
    Verification,
    num_threads,
    set_num_threads,
)
from . import _ember

__all__ = [
    "BundledProgram",
    "EmberError",
    "Method",
    "MethodMeta",
    "Program",
    "Runtime",
    "TensorInfo",
    "Verification",
    "num_threads",
    "set_num_threads",
]

# ScalarType.BFloat16 (PyTorch's numbering).
_BFLOAT16 = 15


def _torch():
    """torch, when the application imported it (never imported here)."""
    return sys.modules.get("torch")


def _to_native(value: Any, torch: Any) -> Any:
    """A torch tensor as a numpy view of its memory (no copy for a CPU
    tensor); bfloat16, which numpy lacks, as (int16 bits, BFloat16)."""
    if torch is None or not isinstance(value, torch.Tensor):
        return value
    t = value.detach()
    if t.device.type != "cpu":
        t = t.cpu()
    t = t.resolve_conj().resolve_neg()
    if t.dtype == torch.bfloat16:
        return (t.view(torch.int16).numpy(), _BFLOAT16)
    return t.numpy()


def _ml_dtype(name: str) -> Any:
    """ml_dtypes' numpy dtype for an Ember dtype name ("BFloat16",
    "Float8_e5m2", ...), when ml_dtypes is installed."""
    try:
        import ml_dtypes
    except ImportError:
        return None
    return getattr(ml_dtypes, name.lower(), None)


def _from_native(value: Any, torch: Any) -> Any:
    """An output as numpy (torch is None) or torch. Tensors of dtypes numpy
    lacks arrive as (dtype name, bits): they become torch.bfloat16, else
    ml_dtypes' dtype when installed, else float32 for bfloat16 (exact: a
    bfloat16 is the top half of a float32), else the raw bits."""
    if isinstance(value, list):
        return [_from_native(v, torch) for v in value]
    if isinstance(value, tuple):
        name, bits = value
        if torch is not None:
            if name == "BFloat16":
                return torch.from_numpy(bits.view(np.int16)).view(torch.bfloat16)
            return torch.from_numpy(bits)
        dtype = _ml_dtype(name)
        if dtype is not None:
            return bits.view(dtype)
        if name == "BFloat16":
            return (bits.astype(np.uint32) << 16).view(np.float32)
        return bits
    if torch is not None and isinstance(value, np.ndarray):
        return torch.from_numpy(value)
    return value


def _paths(data_files: Any) -> List[str]:
    if data_files is None:
        return []
    if isinstance(data_files, (str, os.PathLike)):
        return [os.fspath(data_files)]
    return [os.fspath(p) for p in data_files]


class Method:
    """A loaded method of a Program; run it with :meth:`execute`.

    One call runs at a time per method (calls from several threads wait
    for each other; the GIL is released while the method runs)."""

    def __init__(self, method: "_ember._Method", program: "Program") -> None:
        self._method = method
        self._program = program

    @property
    def name(self) -> str:
        return self._method.name

    def execute(self, inputs: Sequence[Any]) -> List[Any]:
        """Sets every input from ``inputs`` (in the method's order), runs,
        and returns every output (copies: they stay valid).

        numpy arrays of the method's dtype are used without a copy when
        they are contiguous in the method's dim order (a copy is made
        otherwise); a planned input is copied into the method's memory,
        an input the program leaves to the application is read in place.
        Outputs are torch tensors when any input was a torch tensor."""
        torch = _torch()
        if isinstance(inputs, np.ndarray) or (torch is not None and
                                              isinstance(inputs, torch.Tensor)):
            inputs = [inputs]  # one tensor input, as upstream's forward takes it
        elif not isinstance(inputs, (list, tuple)):
            inputs = list(inputs)
        as_torch = torch is not None and any(isinstance(x, torch.Tensor) for x in inputs)
        native = [_to_native(x, torch) for x in inputs]
        outputs = self._method.execute(native)
        return _from_native(outputs, torch if as_torch else None)

    __call__ = execute

    @property
    def metadata(self) -> MethodMeta:
        """Input and output kinds, dtypes and shapes (upstream's MethodMeta)."""
        return self._method.method_meta()

    # ---- Bundled programs (.bpte) ----

    def bundled_inputs(self, testset_index: int) -> List[Any]:
        """The inputs of test case ``testset_index`` (as numpy values)."""
        return _from_native(self._method.bundled_inputs(testset_index), None)

    def verify(self, testset_index: int, rtol: float = DEFAULT_BUNDLED_RTOL,
               atol: float = DEFAULT_BUNDLED_ATOL) -> Dict[str, Any]:
        """Runs test case ``testset_index`` of a bundled program and compares
        every output with the expected one (upstream's rules: NaN equals NaN,
        |a - b| <= atol + rtol * |b|). Returns a report: ``passed``,
        ``message`` (the first failure, else ""), ``method``,
        ``testset_index``, ``rtol``, ``atol`` and ``outputs``, one dict per
        output (``passed``, ``mismatch``, ``max_abs_error``, ``max_rel_error``,
        ``sqnr_db``, ``worst_index``, ...). Raises EmberError only when the
        case cannot run (not when values differ)."""
        return self._method.verify(testset_index, rtol, atol)

    def verify_result_with_bundled_expected_output(
            self, testset_idx: int, rtol: float = DEFAULT_BUNDLED_RTOL,
            atol: float = DEFAULT_BUNDLED_ATOL) -> List[Any]:
        """Upstream's check: runs the test case, returns its outputs, raises
        EmberError when one is outside tolerance."""
        return _from_native(
            self._method.verify_result_with_bundled_expected_output(testset_idx, rtol, atol), None)


class Program:
    """A loaded program; :meth:`load_method` gives its methods."""

    def __init__(self, program: "_ember._Program") -> None:
        self._program = program
        self._names = list(program.method_names())
        self._methods: Dict[str, Method] = {}

    @property
    def method_names(self) -> Set[str]:
        """The method names, as a set (as upstream)."""
        return set(self._names)

    def load_method(self, name: str) -> Method:
        """Loads ``name`` (once; later calls return the same Method).
        KeyError for a name the program does not have (as upstream)."""
        if name not in self._names:
            raise KeyError(f"no method {name!r} in the program (it has {sorted(self._names)})")
        method = self._methods.get(name)
        if method is None:
            method = Method(self._program.load_method(name), self)
            self._methods[name] = method
        return method

    def metadata(self, method_name: str) -> MethodMeta:
        """MethodMeta of ``method_name`` without loading it."""
        return self._program.method_meta(method_name)


class BundledProgram(Program):
    """A bundled program (.bpte): the program and its test cases."""

    @property
    def bundled_method_names(self) -> List[str]:
        """The methods that have test cases, in the bundle's order."""
        return list(self._program.bundled_method_names())

    def num_test_cases(self, method_name: str) -> int:
        return self._program.num_test_cases(method_name)

    def verify_result_with_bundled_expected_output(
            self, method_name: str, testset_idx: int, rtol: float = DEFAULT_BUNDLED_RTOL,
            atol: float = DEFAULT_BUNDLED_ATOL) -> List[Any]:
        """Upstream's BundledModule method: runs test case ``testset_idx`` of
        ``method_name``, returns the outputs, raises EmberError when one is
        outside tolerance."""
        return self.load_method(method_name).verify_result_with_bundled_expected_output(
            testset_idx, rtol, atol)

    def verify_all(self, rtol: float = DEFAULT_BUNDLED_RTOL,
                   atol: float = DEFAULT_BUNDLED_ATOL) -> List[Dict[str, Any]]:
        """Every test case of every method (as executor_runner does): one
        report per case (see Method.verify)."""
        reports = []
        for name in self.bundled_method_names:
            method = self.load_method(name)
            for k in range(self.num_test_cases(name)):
                reports.append(method.verify(k, rtol, atol))
        return reports


class BackendRegistry:
    """The backends built into this module."""

    @property
    def registered_backend_names(self) -> List[str]:
        return list(_ember._get_registered_backend_names())

    def is_available(self, backend_name: str) -> bool:
        return bool(_ember._is_available(backend_name))


class OperatorRegistry:
    """The operators built into this module."""

    @property
    def operator_names(self) -> Set[str]:
        return set(_ember._get_operator_names())


_ProgramData = Union[bytes, bytearray, memoryview, "os.PathLike[str]", str, Any]


class Runtime:
    """The runtime (one per process: :meth:`get`)."""

    _instance: Optional["Runtime"] = None

    @staticmethod
    def get() -> "Runtime":
        if Runtime._instance is None:
            Runtime._instance = Runtime()
        return Runtime._instance

    def __init__(self) -> None:
        self.backend_registry = BackendRegistry()
        self.operator_registry = OperatorRegistry()

    @staticmethod
    def set_num_threads(threads: int) -> None:
        """Threads for threaded kernels and XNNPACK (0: the cores, at most 8;
        Ember's default is 1)."""
        set_num_threads(threads)

    @staticmethod
    def num_threads() -> int:
        return num_threads()

    def _load(self, data: _ProgramData, verification: Verification, data_files: Any,
              data_path: Any) -> "_ember._Program":
        files = _paths(data_files) + _paths(data_path)
        if isinstance(data, (str, os.PathLike)):
            path = os.fspath(data)
            if not os.path.exists(path):
                raise FileNotFoundError(f"no such program: {path!r}")
            return _ember._load_program(path, files, verification)
        if isinstance(data, (bytearray, memoryview)):
            data = bytes(data)
        elif hasattr(data, "read"):
            data = data.read()
        if not isinstance(data, bytes):
            raise TypeError("expected bytes, bytearray, a path or a file-like object, got "
                            f"{type(data).__name__}")
        return _ember._load_program_from_buffer(data, files, verification)

    def load_program(self, data: _ProgramData, *,
                     verification: Verification = Verification.InternalConsistency,
                     data_files: Any = None, data_path: Any = None) -> Program:
        """Loads a program from a path (memory-mapped), bytes or a file
        object. A .bpte loads its embedded program. ``data_files`` (or
        upstream's ``data_path``): .ptd files with the program's external
        weights, searched in order."""
        program = self._load(data, verification, data_files, data_path)
        return BundledProgram(program) if program.is_bundled() else Program(program)

    def load_bundled_program(self, data: _ProgramData, *,
                             verification: Verification = Verification.InternalConsistency,
                             data_files: Any = None) -> BundledProgram:
        """Loads a bundled program (.bpte) for verification."""
        program = self._load(data, verification, data_files, None)
        if not program.is_bundled():
            raise ValueError("not a bundled program (.bpte): it has no test cases")
        return BundledProgram(program)
