"""Builds the jax-vkhlo package with the plugin library inside it.

The library comes from $VKHLO_PJRT_LIBRARY, else from the build tree beside this folder
(../build/lib/libvkhlo_pjrt.so, what the README's build makes). It is copied into the package,
so that a wheel carries it; an editable or in-place install instead records the path it was
found at (_library.py). Without a library the package still installs, and says at JAX start-up
that it found none.
"""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY = "libvkhlo_pjrt.so"


def built_library():
    for path in (os.environ.get("VKHLO_PJRT_LIBRARY", ""), os.path.join(HERE, "..", "build", "lib", LIBRARY)):
        if path and os.path.isfile(path):
            return os.path.abspath(path)
    return None


class BuildPyWithLibrary(build_py):
    def run(self):
        super().run()
        library = built_library()
        package_dir = os.path.join(self.build_lib, "jax_plugins", "vkhlo")
        os.makedirs(package_dir, exist_ok=True)
        if library is not None:
            shutil.copy2(library, os.path.join(package_dir, LIBRARY))
        with open(os.path.join(package_dir, "_library.py"), "w") as f:
            f.write("# Where setup.py found the plugin library when this package was built.\n")
            f.write("PATH = %r\n" % (library or ""))


setup(cmdclass={"build_py": BuildPyWithLibrary}, has_ext_modules=lambda: True)
