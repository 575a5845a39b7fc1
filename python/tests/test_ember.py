"""Tests of the Python module `ember` (run after `pip install .`):

    python -m pytest python/tests          # or: python -m unittest discover python/tests

Not part of ctest; the C++ build never needs Python. Fixtures come from
test/models/ (EMBER_REPO points at another checkout). Comparisons with the
C++ executor_runner (EMBER_RUNNER, default build/examples/executor_runner)
are skipped when it is not built.
"""

import json
import os
import subprocess
import sys
import tempfile
import threading
import unittest
from pathlib import Path

import numpy as np

import ember
from ember import EmberError, Runtime

REPO = Path(os.environ.get("EMBER_REPO", Path(__file__).resolve().parents[2]))
MODELS = REPO / "test" / "models"
RUNNER = Path(os.environ.get("EMBER_RUNNER", REPO / "build" / "examples" / "executor_runner"))

# The fixture README's tolerances against eager PyTorch.
RTOL, ATOL = 1e-5, 1e-6


def runs(name, method="forward"):
    """[(inputs, expected outputs)] of a fixture's method, in run order."""
    out = []
    folder = MODELS / name / method
    for run in sorted(folder.glob("run*"), key=lambda p: int(p.name[3:])):
        load = lambda kind: [np.load(p) for p in
                             sorted(run.glob(kind + "*.npy"), key=lambda p: int(p.stem[len(kind):]))]
        out.append((load("input"), load("output")))
    return out


def run_cxx(model, inputs, method=None, data_files=()):
    """The C++ executor_runner's outputs for `inputs` (one execution, one thread)."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, x in enumerate(inputs):
            p = os.path.join(tmp, f"in{i}.npy")
            np.save(p, x)
            paths.append(p)
        cmd = [str(RUNNER), f"--model_path={model}", f"--inputs={','.join(paths)}",
               f"--output_file={tmp}/out", "--threads=1", "--print_output=none"]
        if method:
            cmd.append(f"--method_name={method}")
        if data_files:
            cmd.append(f"--data_path={','.join(str(d) for d in data_files)}")
        subprocess.run(cmd, check=True, capture_output=True)
        outs = sorted(Path(tmp).glob("out-*.npy"), key=lambda p: int(p.stem.split("-")[-1]))
        return [np.load(p) for p in outs]


def assert_same(test, ours, theirs):
    """Bit-identical: same runtime, same kernels, same thread count."""
    test.assertEqual(len(ours), len(theirs))
    for a, b in zip(ours, theirs):
        test.assertEqual(a.dtype, b.dtype)
        test.assertEqual(a.shape, b.shape)
        np.testing.assert_array_equal(a, b)


def assert_close(test, ours, expected):
    test.assertEqual(len(ours), len(expected))
    for a, b in zip(ours, expected):
        test.assertEqual(a.dtype, b.dtype)
        np.testing.assert_allclose(a, b, rtol=RTOL, atol=ATOL)


def xnnpack_tolerance(bpte):
    """(rtol, atol) of an XNNPACK fixture from its MANIFEST, else the defaults."""
    manifest = MODELS / "xnnpack" / "MANIFEST"
    if bpte.parent == manifest.parent:
        for line in manifest.read_text().splitlines():
            fields = line.split()
            if fields and fields[0] == bpte.stem:
                opts = dict(f.split("=", 1) for f in fields[2:] if "=" in f)
                return float(opts["rtol"]), float(opts["atol"])
    return ember.DEFAULT_BUNDLED_RTOL, ember.DEFAULT_BUNDLED_ATOL


have_runner = unittest.skipUnless(RUNNER.exists(), f"no C++ runner at {RUNNER}")


class PortableProgramTest(unittest.TestCase):
    def setUp(self):
        ember.set_num_threads(1)
        self.rt = Runtime.get()

    def test_runtime_is_a_singleton(self):
        self.assertIs(Runtime.get(), self.rt)

    def test_fixtures_match_pytorch(self):
        for name in ["add", "linear", "linear_inline", "mlp", "convnet", "int_bool",
                     "stateful", "dynamic", "scalar_ops", "cond"]:
            with self.subTest(name=name):
                program = self.rt.load_program(MODELS / name / "model.pte")
                self.assertEqual(program.method_names, {"forward"})
                forward = program.load_method("forward")
                for inputs, expected in runs(name):  # in order: `stateful` accumulates
                    assert_close(self, forward.execute(inputs), expected)

    def test_two_methods(self):
        program = self.rt.load_program(str(MODELS / "two_methods" / "model.pte"))
        self.assertEqual(program.method_names, {"forward", "double_it"})
        for method in ["forward", "double_it"]:
            m = program.load_method(method)
            self.assertIs(program.load_method(method), m)
            for inputs, expected in runs("two_methods", method):
                assert_close(self, m.execute(inputs), expected)

    @have_runner
    def test_outputs_equal_the_cxx_runner(self):
        for name in ["add", "mlp", "convnet", "int_bool", "dynamic", "scalar_ops"]:
            with self.subTest(name=name):
                model = MODELS / name / "model.pte"
                for inputs, _ in runs(name):
                    ours = self.rt.load_program(model).load_method("forward").execute(inputs)
                    assert_same(self, ours, run_cxx(model, inputs))
        model = MODELS / "two_methods" / "model.pte"
        inputs, _ = runs("two_methods", "double_it")[0]
        ours = self.rt.load_program(model).load_method("double_it").execute(inputs)
        assert_same(self, ours, run_cxx(model, inputs, method="double_it"))

    def test_load_from_bytes_and_file_objects(self):
        path = MODELS / "mlp" / "model.pte"
        inputs, expected = runs("mlp")[0]
        data = path.read_bytes()
        with open(path, "rb") as f:
            for source in [data, bytearray(data), f]:
                out = self.rt.load_program(source).load_method("forward").execute(inputs)
                assert_close(self, out, expected)

    def test_metadata(self):
        program = self.rt.load_program(MODELS / "add" / "model.pte")
        for meta in [program.metadata("forward"), program.load_method("forward").metadata]:
            self.assertEqual(meta.name(), "forward")
            self.assertEqual(meta.num_inputs(), 2)
            self.assertEqual(meta.num_outputs(), 1)
            t = meta.input_tensor_meta(0)
            self.assertEqual(t.sizes(), (2, 3))
            self.assertEqual(t.dtype(), 6)  # ScalarType.Float
            self.assertEqual(t.dtype_name(), "Float")
            self.assertEqual(t.nbytes(), 24)
            self.assertTrue(t.is_memory_planned())
            self.assertEqual(meta.output_tensor_meta(0).sizes(), (2, 3))
            self.assertEqual(meta.input_tag(1), "Tensor")
            with self.assertRaises(IndexError):
                meta.input_tensor_meta(2)
            self.assertIn("MethodMeta(name='forward'", repr(meta))
        dyn = self.rt.load_program(MODELS / "dynamic" / "model.pte").metadata("forward")
        self.assertEqual(dyn.input_tensor_meta(0).shape_dynamism(), "dynamic_bound")

    def test_inputs_need_not_be_contiguous(self):
        program = self.rt.load_program(MODELS / "mlp" / "model.pte")
        forward = program.load_method("forward")
        inputs, expected = runs("mlp")[0]
        strided = np.asfortranarray(inputs[0])
        self.assertFalse(strided.flags.c_contiguous)
        readonly = inputs[0].copy()
        readonly.flags.writeable = False
        for x in [strided, readonly, inputs[0].tolist()]:
            np.testing.assert_array_equal(forward.execute([x])[0], forward.execute(inputs)[0])

    def test_outputs_are_copies(self):
        forward = self.rt.load_program(MODELS / "add" / "model.pte").load_method("forward")
        (a, b), _ = runs("add")[0]
        first = forward.execute([a, b])[0]
        kept = first.copy()
        forward.execute([a * 3, b * 3])
        np.testing.assert_array_equal(first, kept)

    def test_errors_carry_embers_message(self):
        forward = self.rt.load_program(MODELS / "add" / "model.pte").load_method("forward")
        (a, b), _ = runs("add")[0]
        with self.assertRaises(EmberError) as cm:
            forward.execute([a.astype(np.float64), b])
        self.assertIn("dtype Double, the method expects Float", str(cm.exception))
        self.assertEqual(cm.exception.error, "InvalidArgument")
        with self.assertRaises(EmberError) as cm:
            forward.execute([a[:1], b])
        self.assertIn("shape not accepted", str(cm.exception))
        with self.assertRaises(ValueError):
            forward.execute([a])
        with self.assertRaises(TypeError):
            forward.execute([None, b])
        with self.assertRaises(TypeError):
            forward.execute(["text", b])
        with self.assertRaises(KeyError):
            self.rt.load_program(MODELS / "add" / "model.pte").load_method("nope")
        with self.assertRaises(EmberError) as cm:
            self.rt.load_program(b"\0" * 64)
        self.assertEqual(cm.exception.error, "InvalidProgram")
        with self.assertRaises(FileNotFoundError):
            self.rt.load_program(MODELS / "no_such.pte")
        with self.assertRaises(ValueError):
            self.rt.load_bundled_program(MODELS / "add" / "model.pte")

    def test_registries(self):
        self.assertTrue(self.rt.backend_registry.is_available("XnnpackBackend"))
        self.assertIn("XnnpackBackend", self.rt.backend_registry.registered_backend_names)
        self.assertIn("aten::add.out", self.rt.operator_registry.operator_names)


class XnnpackProgramTest(unittest.TestCase):
    def setUp(self):
        ember.set_num_threads(1)
        self.rt = Runtime.get()

    def test_external_weights(self):
        for kind in ["xnnpack", "portable"]:
            with self.subTest(kind=kind):
                program = self.rt.load_program(MODELS / "external" / f"{kind}.pte",
                                               data_files=[MODELS / "external" / f"{kind}.ptd"])
                forward = program.load_method("forward")
                self.assertEqual(forward.metadata.uses_backend("XnnpackBackend"), kind == "xnnpack")
                for inputs, expected in runs("external"):
                    assert_close(self, forward.execute(inputs), expected)

    def test_unplanned_inputs_are_bound(self):
        for name in ["unplanned_xnnpack", "unplanned_portable"]:
            with self.subTest(name=name):
                program = self.rt.load_program(MODELS / "io" / name / "model.pte")
                forward = program.load_method("forward")
                meta = forward.metadata
                self.assertFalse(meta.input_tensor_meta(0).is_memory_planned())
                for inputs, expected in runs("io/" + name):
                    readonly = [x.copy() for x in inputs]
                    for x in readonly:
                        x.flags.writeable = False
                    assert_close(self, forward.execute(inputs), expected)
                    assert_close(self, forward.execute(readonly), expected)

    @have_runner
    def test_outputs_equal_the_cxx_runner(self):
        model = MODELS / "external" / "xnnpack.pte"
        ptd = MODELS / "external" / "xnnpack.ptd"
        inputs, _ = runs("external")[0]
        forward = self.rt.load_program(model, data_files=[ptd]).load_method("forward")
        assert_same(self, forward.execute(inputs), run_cxx(model, inputs, data_files=[ptd]))
        # Delegated bundles, run as plain programs on their bundled inputs.
        for name in ["tiny_cnn", "q_tiny_cnn", "tiny_encoder", "dq_linear_block"]:
            with self.subTest(name=name):
                bpte = MODELS / "xnnpack" / f"{name}.bpte"
                method = self.rt.load_program(bpte).load_method("forward")
                self.assertTrue(method.metadata.uses_backend("XnnpackBackend"))
                inputs = method.bundled_inputs(0)
                assert_same(self, method.execute(inputs), run_cxx(bpte, inputs))

    def test_threads(self):
        bpte = MODELS / "xnnpack" / "tiny_cnn.bpte"
        method = self.rt.load_program(bpte).load_method("forward")
        inputs = method.bundled_inputs(0)
        one = method.execute(inputs)
        try:
            # XNNPACK takes the pool when a method loads: set the count first.
            ember.set_num_threads(2)
            self.assertEqual(ember.num_threads(), 2)
            with self.assertRaises(EmberError) as cm:
                method.execute(inputs)
            self.assertIn("set the thread count before loading methods", str(cm.exception))
            method = self.rt.load_program(bpte).load_method("forward")
            np.testing.assert_allclose(method.execute(inputs)[0], one[0], rtol=1e-5, atol=1e-6)
            # Calls from several Python threads on one method wait for each other.
            results = [None] * 4
            def work(i):
                results[i] = method.execute(inputs)[0]
            threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            for r in results:
                np.testing.assert_allclose(r, one[0], rtol=1e-5, atol=1e-6)
        finally:
            ember.set_num_threads(1)


class BundledProgramTest(unittest.TestCase):
    def setUp(self):
        ember.set_num_threads(1)
        self.rt = Runtime.get()

    def test_every_case_passes(self):
        bundles = sorted((MODELS / "bundled").glob("*.bpte"))
        bundles += [MODELS / "xnnpack" / f"{n}.bpte"
                    for n in ["tiny_cnn", "q_tiny_cnn", "residual_cnn", "dynamic_seq"]]
        bundles += [MODELS / "io" / "unplanned_xnnpack" / "model.bpte"]
        for bpte in bundles:
            with self.subTest(bundle=str(bpte.relative_to(MODELS))):
                bundle = self.rt.load_bundled_program(bpte)
                reports = bundle.verify_all(*xnnpack_tolerance(bpte))
                self.assertTrue(reports)
                for r in reports:
                    self.assertTrue(r["passed"], r["message"])
                    self.assertEqual(r["message"], "")
                    self.assertTrue(all(o["passed"] for o in r["outputs"]))

    def test_upstream_verify_and_failure_report(self):
        bundle = self.rt.load_bundled_program((MODELS / "bundled" / "mlp.bpte").read_bytes())
        self.assertIsInstance(bundle, ember.BundledProgram)
        self.assertEqual(bundle.bundled_method_names, ["forward"])
        outputs = bundle.verify_result_with_bundled_expected_output("forward", 0)
        forward = bundle.load_method("forward")
        assert_same(self, outputs, forward.execute(forward.bundled_inputs(0)))
        # A failing comparison: a report, or upstream's exception.
        report = forward.verify(0, rtol=0.0, atol=1e-30)
        if not report["passed"]:  # the fixture's outputs may match exactly
            self.assertIn("test case 0", report["message"])
            with self.assertRaises(EmberError):
                bundle.verify_result_with_bundled_expected_output("forward", 0, 0.0, 1e-30)
        with self.assertRaises(EmberError):
            forward.verify(bundle.num_test_cases("forward"))

    @have_runner
    def test_reports_equal_the_cxx_runner(self):
        for bpte in [MODELS / "xnnpack" / "q_tiny_cnn.bpte", MODELS / "bundled" / "two_methods.bpte"]:
            with self.subTest(bundle=bpte.name), tempfile.TemporaryDirectory() as tmp:
                report = os.path.join(tmp, "report.json")
                subprocess.run([str(RUNNER), f"--model_path={bpte}", f"--report={report}",
                                "--threads=1"], check=True, capture_output=True)
                theirs = json.load(open(report))
                ours = self.rt.load_bundled_program(bpte).verify_all()
                self.assertEqual(len(ours), len(theirs["cases"]))
                for a, b in zip(ours, theirs["cases"]):
                    self.assertEqual(a["passed"], b["passed"])
                    self.assertEqual(a["method"], b["method"])
                    for x, y in zip(a["outputs"], b["outputs"]):
                        self.assertEqual(x["max_abs_error"], y["max_abs_error"])


class DtypeTest(unittest.TestCase):
    def test_bfloat16_as_bits(self):
        # numpy has no bfloat16: bits go in as (array, ScalarType.BFloat16).
        bundle = Runtime.get().load_bundled_program(MODELS / "ops" / "add__bf16_broadcast.bpte")
        forward = bundle.load_method("forward")
        self.assertEqual(forward.metadata.input_tensor_meta(0).dtype_name(), "BFloat16")
        expected = bundle.verify_result_with_bundled_expected_output("forward", 0)
        bundle_inputs = forward.bundled_inputs(0)
        bits = []
        for x in bundle_inputs:
            if x.dtype == np.float32:  # widened (no ml_dtypes)
                bits.append((x.view(np.uint32) >> 16).astype(np.uint16))
            else:  # ml_dtypes.bfloat16
                bits.append(x.view(np.uint16))
        outputs = forward.execute([(b, 15) for b in bits])
        np.testing.assert_array_equal(np.asarray(outputs[0], np.float32),
                                      np.asarray(expected[0], np.float32))
        try:
            import ml_dtypes
        except ImportError:
            return
        self.assertEqual(outputs[0].dtype, ml_dtypes.bfloat16)
        again = forward.execute(bundle_inputs)  # ml_dtypes arrays go in as they are
        np.testing.assert_array_equal(again[0], outputs[0])

    def test_every_builtin_dtype_round_trips(self):
        # int_bool: int64 and bool inputs and outputs.
        forward = Runtime.get().load_program(MODELS / "int_bool" / "model.pte").load_method("forward")
        for inputs, expected in runs("int_bool"):
            outputs = forward.execute(inputs)
            self.assertEqual([o.dtype for o in outputs], [e.dtype for e in expected])
            assert_same(self, outputs, expected)


class TorchTest(unittest.TestCase):
    def setUp(self):
        try:
            import torch  # noqa: F401
        except ImportError:
            self.skipTest("torch is not installed")

    def test_torch_in_torch_out(self):
        import torch
        forward = Runtime.get().load_program(MODELS / "mlp" / "model.pte").load_method("forward")
        inputs, expected = runs("mlp")[0]
        out = forward.execute([torch.from_numpy(inputs[0])])
        self.assertIsInstance(out[0], torch.Tensor)
        np.testing.assert_allclose(out[0].numpy(), expected[0], rtol=RTOL, atol=ATOL)


if __name__ == "__main__":
    unittest.main()
