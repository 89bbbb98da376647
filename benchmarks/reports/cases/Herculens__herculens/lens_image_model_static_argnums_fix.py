# source: https://github.com/Herculens/herculens/commit/8175191070ba7e70dafb527b4a4ccf655bad1d3f
# category: B
# expect: ok
# via: method, partial-jit, static-argnums, jit-decorator, dict-of-arrays
# sink: static-spec
"""herculens after the fix: `static_argnums=(0, 4, 5, 6)` names `self` and the three flags, so
the profile lists are traced and the flags stay Python booleans."""
from functools import partial

import jax.numpy as np
from jax import jit


class PixelGrid:
    def __init__(self, nx, ny, pixel_width):
        self.num_pixel_axes = (ny, nx)
        self.pixel_width = pixel_width
        x = (np.arange(nx, dtype=np.float32) - (nx - 1) / 2.0) * pixel_width
        y = (np.arange(ny, dtype=np.float32) - (ny - 1) / 2.0) * pixel_width
        self.x_grid, self.y_grid = np.meshgrid(x, y)


class LightModel:
    """Sums Gaussian profiles given as a list of kwargs dicts."""

    def surface_brightness(self, x, y, kwargs_list):
        flux = np.zeros_like(x)
        for kw in kwargs_list:
            r2 = (x - kw["center_x"]) ** 2 + (y - kw["center_y"]) ** 2
            flux = flux + kw["amp"] * np.exp(-r2 / (2.0 * kw["sigma"] ** 2))
        return flux


class LensModel:
    """A singular isothermal sphere: deflection of constant length theta_E."""

    def ray_shooting(self, x, y, kwargs_list):
        for kw in kwargs_list:
            dx, dy = x - kw["center_x"], y - kw["center_y"]
            r = np.sqrt(dx**2 + dy**2) + 1e-6
            x = x - kw["theta_E"] * dx / r
            y = y - kw["theta_E"] * dy / r
        return x, y


class LensImage(object):
    """Generate lensed images from source light and lens mass/light models."""

    def __init__(self, grid_class, lens_model_class, source_model_class, lens_light_model_class):
        self.Grid = grid_class
        self.LensModel = lens_model_class
        self.SourceModel = source_model_class
        self.LensLightModel = lens_light_model_class

    def source_surface_brightness(self, kwargs_source, kwargs_lens=None, unconvolved=False):
        x, y = self.LensModel.ray_shooting(self.Grid.x_grid, self.Grid.y_grid, kwargs_lens)
        return self.SourceModel.surface_brightness(x, y, kwargs_source)

    def lens_surface_brightness(self, kwargs_lens_light, unconvolved=False):
        return self.LensLightModel.surface_brightness(self.Grid.x_grid, self.Grid.y_grid, kwargs_lens_light)

    @partial(jit, static_argnums=(0, 4, 5, 6))
    def model(self, kwargs_lens=None, kwargs_source=None,
              kwargs_lens_light=None, unconvolved=False, source_add=True,
              lens_light_add=True):
        model = np.zeros((self.Grid.num_pixel_axes))
        if source_add is True:
            model += self.source_surface_brightness(kwargs_source, kwargs_lens, unconvolved=unconvolved)
        if lens_light_add is True:
            model += self.lens_surface_brightness(kwargs_lens_light, unconvolved=unconvolved)
        return model


if __name__ == "__main__":
    grid = PixelGrid(40, 40, 0.08)
    lens_image = LensImage(grid, LensModel(), LightModel(), LightModel())
    kwargs_true_lens_mass = [{"theta_E": np.float32(0.6), "center_x": np.float32(0.0), "center_y": np.float32(0.0)}]
    kwargs_true_source = [{"amp": np.float32(5.0), "sigma": np.float32(0.15), "center_x": np.float32(0.05), "center_y": np.float32(0.1)}]
    kwargs_true_lens_light = [{"amp": np.float32(3.0), "sigma": np.float32(0.3), "center_x": np.float32(0.0), "center_y": np.float32(0.0)}]
    image = lens_image.model(kwargs_lens=kwargs_true_lens_mass,
                             kwargs_source=kwargs_true_source,
                             kwargs_lens_light=kwargs_true_lens_light)
    print(image.shape, float(image.sum()), float(image.max()))
