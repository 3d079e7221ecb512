"""vkhlo as a JAX platform: jax.jit, jax.grad, device_put and block_until_ready on any Vulkan GPU.

JAX imports this module at start-up (it is a `jax_plugins` namespace package and an entry point
of that group) and calls initialize(), which registers vkhlo's PJRT plugin, libvkhlo_pjrt.so, as
the platform "vkhlo". `JAX_PLATFORMS=vkhlo` selects it alone; otherwise it is the default
backend beside JAX's CPU one (`jax.devices("cpu")`).

The library is found, in order, at $VKHLO_PJRT_LIBRARY, beside this file (a wheel carrying it),
or in the build tree this package was installed from (recorded at install time in _library.py).
The device is the one vkhlo picks (VKHLO_DEVICE, VKHLO_PROFILE; `vkhlo-info` lists them);
create options may be given as JSON in $VKHLO_PJRT_OPTIONS, e.g. '{"device_memory_limit": 1073741824}'.
"""
import json
import logging
import os

logger = logging.getLogger(__name__)

PLATFORM_NAME = "vkhlo"
LIBRARY_NAME = "libvkhlo_pjrt.so"
# The JAX releases this package is tested with (tests/pjrt): the plugin speaks PJRT C API 0.72,
# which JAX accepts from 0.29 up while its compatibility mode is on (the default).
TESTED_JAX_VERSIONS = ("0.10.2",)


def library_path():
    """The plugin library to load, or None when none can be found."""
    candidates = [os.environ.get("VKHLO_PJRT_LIBRARY", "")]
    candidates.append(os.path.join(os.path.dirname(__file__), LIBRARY_NAME))
    try:
        from . import _library  # written by setup.py: the build tree's library
        candidates.append(_library.PATH)
    except ImportError:
        pass
    for path in candidates:
        if path and os.path.isfile(path):
            return path
    return None


def _create_options():
    text = os.environ.get("VKHLO_PJRT_OPTIONS", "")
    if not text:
        return None
    options = json.loads(text)
    if not isinstance(options, dict):
        raise ValueError("VKHLO_PJRT_OPTIONS must be a JSON object, e.g. '{\"profile\": \"mobile\"}'")
    return options


def initialize():
    path = library_path()
    if path is None:
        logger.warning("vkhlo: %s not found (set VKHLO_PJRT_LIBRARY, or install a wheel that carries it); "
                       "the vkhlo platform is not registered", LIBRARY_NAME)
        return
    import jax
    if jax.__version__ not in TESTED_JAX_VERSIONS:
        logger.warning("vkhlo: tested with jax %s, running with jax %s", ", ".join(TESTED_JAX_VERSIONS), jax.__version__)
    from jax._src import xla_bridge
    xla_bridge.register_plugin(PLATFORM_NAME, library_path=path, options=_create_options())
    _enable_donation()


def _enable_donation():
    """JAX lowers donate_argnums to buffer donation only for the platforms it lists (cpu, cuda,
    rocm, tpu, neuron: jax._src.interpreters.mlir._platforms_with_donation); for others it warns
    "Some donated buffers were not usable" and copies. The plugin takes donated buffers over
    (their arrays read as deleted, their memory goes once the run is done), so vkhlo joins the
    list. A private list: if a JAX release drops it, donation is ignored again, never wrong."""
    try:
        from jax._src.interpreters import mlir
    except ImportError:
        return
    platforms = getattr(mlir, "_platforms_with_donation", None)
    if isinstance(platforms, list) and PLATFORM_NAME not in platforms:
        platforms.append(PLATFORM_NAME)
