"""`pip install ./python` is all a user does: the package builds (carrying the plugin library),
installs into a fresh folder, and JAX started with only that folder beside its own packages
finds the plugin through the jax_plugins entry point, lists the device and runs jax.jit on it.

Usage: package_test.py PYTHON_PACKAGE_DIR PLUGIN_LIBRARY WORK_DIR
"""
import os
import shutil
import subprocess
import sys

source, library, work = sys.argv[1:4]
try:
    import jax  # noqa: F401
    import wheel  # noqa: F401  (building without isolation, as offline CI does)
except ImportError as error:
    print(f"SKIPPED: {sys.executable} lacks {error.name}; run tools/install-deps.sh")
    sys.exit(0)

shutil.rmtree(work, ignore_errors=True)
copy, target = os.path.join(work, "source"), os.path.join(work, "installed")
shutil.copytree(source, copy)  # builds leave build/ and *.egg-info beside the sources
env = dict(os.environ, VKHLO_PJRT_LIBRARY=library)
subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                "--no-build-isolation", "--target", target, copy], check=True, env=env)

packaged = os.path.join(target, "jax_plugins", "vkhlo", "libvkhlo_pjrt.so")
assert os.path.isfile(packaged), f"the package does not carry the plugin: {packaged} is missing"

# A JAX process that knows nothing but the installed folder: no VKHLO_PJRT_LIBRARY, no sources.
check = r"""
import importlib.metadata, sys
import jax, numpy as np
names = [e.value for e in importlib.metadata.entry_points(group="jax_plugins")]
assert "jax_plugins.vkhlo" in names, names
from jax_plugins import vkhlo
assert vkhlo.library_path().startswith(sys.argv[1]), vkhlo.library_path()
assert jax.default_backend() == "vkhlo", jax.default_backend()
y = jax.jit(lambda x: x * 2.0 + 1.0)(np.arange(4, dtype=np.float32))
assert y.devices() == {jax.devices("vkhlo")[0]}
np.testing.assert_array_equal(np.asarray(y), [1, 3, 5, 7])
print("package works:", jax.devices(), vkhlo.library_path())
"""
clean = {k: v for k, v in os.environ.items() if k not in ("VKHLO_PJRT_LIBRARY", "PYTHONPATH")}
clean.update(PYTHONPATH=target, JAX_PLATFORMS="vkhlo")
subprocess.run([sys.executable, "-c", check, target], check=True, env=clean)
