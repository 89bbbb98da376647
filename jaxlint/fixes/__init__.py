"""Fix builders: how rules declare a fix (declare), and the transformations themselves, one per
module.  Each takes the flagged node and its module and gives edits; the engine applies them
(jaxlint.engine.fixing).  A rule names the builder it uses as an attribute of this package
(``fixes.where_select``), which imports it then: the builders load only once a finding is made,
and a clean run does not pay for them."""

from jaxlint.on_demand import submodules as _submodules

__getattr__ = _submodules(__name__)
