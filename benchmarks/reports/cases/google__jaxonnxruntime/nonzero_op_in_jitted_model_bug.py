# source: https://github.com/google/jaxonnxruntime/issues/29
# category: A
# expect: raises
# via: jit-call, class-attribute, helper, dict-of-arrays
# sink: shape-from-value
"""The ONNX NonZero handler returned `jnp.stack(jnp.nonzero(x))`; running the converted model
inside `jax.jit` traced the node inputs, and jnp.nonzero without a static size could not size
its result."""
import inspect
import logging
from typing import Any, Callable, Sequence

import jax
from jax import numpy as jnp

_OPS = {}


def register_op(name):
  def wrap(cls):
    _OPS[name] = cls
    return cls
  return wrap


class OnnxNode:
  def __init__(self, name, op_type, inputs, outputs, attrs=None):
    self.name, self.op_type = name, op_type
    self.inputs, self.outputs = inputs, outputs
    self.attrs = attrs or {}
    self.attrs_dict = {}


@register_op("NonZero")
class NonZero:
  """Implementation of the ONNX NonZero operator."""

  @classmethod
  def _prepare(cls, node: OnnxNode, inputs: Sequence[Any], onnx_jax_impl: Any):
    sig = inspect.signature(onnx_jax_impl)
    kwparams = [p.name for p in sig.parameters.values() if p.kind == inspect.Parameter.KEYWORD_ONLY]
    for name in kwparams:
      node.attrs_dict[name] = node.attrs.get(name, None)

  @classmethod
  def version_13(cls, node: OnnxNode, inputs: Sequence[Any]) -> Callable[..., Any]:
    cls._prepare(node, inputs, onnx_nonzero)
    return onnx_nonzero


def onnx_nonzero(*input_args):
  assert len(input_args) == 1
  logging.info("onnx_nonzero")
  (x,) = input_args
  return jnp.stack(jnp.nonzero(x))  # <-- bug


def call_onnx_graph(nodes, example_inputs):
  jit_funcs = {}
  tensor_dict = dict(example_inputs)
  for node in nodes:
    node_inputs = [tensor_dict[x] for x in node.inputs]
    jit_funcs[node.name] = _OPS[node.op_type].version_13(node, node_inputs)

  def model_func(model_params, inputs):
    tensor_dict = dict(**inputs, **model_params)
    for node in nodes:
      node_inputs = [tensor_dict[x] for x in node.inputs]
      outputs = jit_funcs[node.name](*node_inputs, **node.attrs_dict)
      tensor_dict[node.outputs[0]] = outputs
    return tensor_dict[nodes[-1].outputs[0]]

  return model_func


if __name__ == "__main__":
  nodes = [OnnxNode("nonzero_0", "NonZero", ["x"], ["y"])]
  x = jnp.array([[1, 0, 3], [0, 5, 0]])
  jax_model = call_onnx_graph(nodes, {"x": x})
  params = {}

  @jax.jit
  def infer(inputs):
    return jax_model(params, inputs)

  print(infer({"x": x}))
