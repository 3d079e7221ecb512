"""Small models through jax.jit on vkhlo against JAX's CPU backend: the models of the bytecode
reader's tests (tools/bytecode/export_models.py: an MLP and its SGD step, a CNN, a transformer
block, an LSTM over lax.scan), here compiled from what JAX hands the plugin, plus jax.grad of
the MLP and a few SGD steps in a Python loop with the parameters kept on the device."""
import os
import sys
import unittest

import numpy as np

from jax_on_vkhlo import VKHLO, check, jax, jnp, on

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "bytecode"))
import export_models  # noqa: E402

MODELS = export_models.models(jax, jnp)


class ModelsTest(unittest.TestCase):
    def check_model(self, name, scale):
        function, args = MODELS[name]
        check(self, function, *args, what=name, scale=scale)

    def test_mlp_forward(self):
        self.check_model("mlp_forward", scale=20)

    def test_mlp_sgd_step(self):
        self.check_model("mlp_train_step", scale=50)

    def test_cnn_forward(self):
        self.check_model("cnn_forward", scale=50)

    def test_transformer_block(self):
        self.check_model("transformer_block", scale=100)

    def test_lstm_scan(self):
        self.check_model("lstm_scan", scale=50)

    def test_grad_of_mlp_and_a_training_loop(self):
        _, args = MODELS["mlp_train_step"]
        params, x, y = tuple(args[:4]), args[4], args[5]

        def loss(params, x, y):
            w1, b1, w2, b2 = params
            return jnp.mean((jnp.tanh(x @ w1 + b1) @ w2 + b2 - y) ** 2)

        check(self, jax.grad(loss), params, x, y, what="grad(mlp loss)", scale=50)

        @jax.jit
        def sgd(params, x, y):
            value, grads = jax.value_and_grad(loss)(params, x, y)
            return value, jax.tree_util.tree_map(lambda p, g: p - 0.05 * g, params, grads)

        losses = {}
        for device in (VKHLO, jax.devices("cpu")[0]):
            p, xs, ys = on(device, params), on(device, x), on(device, y)
            history = []
            for _ in range(8):
                value, p = sgd(p, xs, ys)
                history.append(float(value))
            self.assertEqual(p[0].devices(), {device})
            losses[device.platform] = history
        np.testing.assert_allclose(losses["vkhlo"], losses["cpu"], rtol=1e-4)
        self.assertLess(losses["vkhlo"][-1], losses["vkhlo"][0])  # it learns


if __name__ == "__main__":
    from jax_on_vkhlo import main
    main()
