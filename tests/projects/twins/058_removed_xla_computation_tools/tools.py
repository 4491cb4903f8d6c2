import jax
import jax.numpy as jnp
