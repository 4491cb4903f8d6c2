import jax

mesh = jax.make_mesh((4, 2), ("data", "model"))
