import jax.tools.colab_tpu

jax.tools.colab_tpu.setup_tpu()
