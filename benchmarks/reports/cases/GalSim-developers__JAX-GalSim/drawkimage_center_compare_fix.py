# source: https://github.com/GalSim-developers/JAX-GalSim/commit/1bf4a5dc46b86ccf203714645d12c9173a8d8769
# category: A
# expect: ok
# via: method, jit-decorator, pytree-class
# sink: bool-ops
"""drawKImage refused to recenter an image it also adds to with `if recenter and image.center !=
PositionI(0, 0) and add_to_image:`; with the image's bounds traced under jit the position
comparison is a traced boolean, and the `and` chain asks for its truth value."""
import equinox
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class PositionI:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __eq__(self, other):
        return jnp.array_equal(self.x, other.x) & jnp.array_equal(self.y, other.y)

    def __ne__(self, other):
        return ~self.__eq__(other)

    def tree_flatten(self):
        return (self.x, self.y), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


@register_pytree_node_class
class ImageCD:
    def __init__(self, array, xmin, ymin):
        self.array, self.xmin, self.ymin = array, xmin, ymin

    @property
    def center(self):
        ny, nx = self.array.shape
        return PositionI(self.xmin + nx // 2, self.ymin + ny // 2)

    def tree_flatten(self):
        return (self.array, self.xmin, self.ymin), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


class Gaussian:
    def __init__(self, sigma):
        self.sigma = sigma

    def drawKImage(self, image, recenter=True, add_to_image=False):
        # Can't both recenter a provided image and add to it.
        if recenter and add_to_image:
            zp = PositionI(0, 0)
            equinox.error_if(
                zp.x,
                image.center != zp,
                "Cannot use add_to_image=True unless image is centered at (0,0) or recenter=False",
            )
        ny, nx = image.array.shape
        kx = jnp.arange(nx) - nx // 2
        ky = jnp.arange(ny) - ny // 2
        ksq = kx[None, :] ** 2 + ky[:, None] ** 2
        kimage = jnp.exp(-0.5 * ksq * (0.1 * self.sigma) ** 2).astype(image.array.dtype)
        new = kimage + image.array if add_to_image else kimage
        return ImageCD(new, image.xmin, image.ymin)


@jax.jit
def draw(image):
    return Gaussian(sigma=2.0).drawKImage(image=image).array


if __name__ == "__main__":
    image = ImageCD(jnp.zeros((8, 8), dtype=jnp.complex64), jnp.int32(-4), jnp.int32(-4))
    print(jnp.abs(draw(image)).sum())
