"""Run-time fixes for two regressions of Debian 13's python3-ironic 29.0.5-0+deb13u3.

The 2025.1 reference must answer as Ironic 2025.1 means to, so run_ironic.py calls apply() before
Ironic starts. Nothing in the Debian 13 root is changed: each fix replaces one function in memory,
and refuses to start (AssertionError) when the installed code no longer has the shape it fixes, so a
new package is reviewed instead of silently mis-patched.

1. Node PATCH. The package's security backport calls
   api_utils.authorize_node_link_patch(node, patch, 'parent_node') on every node PATCH and stores
   the node it returns as the new parent_node. Without /parent_node in the patch that function
   returns the node itself (what port, portgroup and volume PATCHes need: "the node stays"), so
   every node PATCH makes the node its own parent and hides it from GET /v1/nodes (which lists
   nodes whose parent_node is null). Fix: for parent_node, a patch that sets no value corrects
   nothing (None); the other links keep the original answer.
2. Rebuild. deployments.start_deploy assigns the local auto_lessee only when the event is not a
   rebuild, then reads it, so every rebuild fails with UnboundLocalError (HTTP 500). Fix: the same
   function, recompiled from its own source with auto_lessee = False first (a rebuild applies no
   automatic lessee, as its own comment says).
"""
import ast
import inspect


def apply():
    _check_release()
    _fix_parent_node_patch()
    _fix_rebuild_auto_lessee()


def _check_release():
    from importlib import metadata
    version = metadata.version('ironic')
    assert version.startswith('29.0.5'), f'these fixes are for Ironic 29.0.5, found {version}: review them'


def _fix_parent_node_patch():
    from ironic.api.controllers.v1 import utils as api_utils
    original = api_utils.authorize_node_link_patch
    assert 'return orig_node' in inspect.getsource(original), 'authorize_node_link_patch changed: review fix 1'

    def authorize_node_link_patch(orig_node, patch, field_name):
        if field_name == 'parent_node' and not api_utils.get_patch_values(patch, '/parent_node'):
            return None
        return original(orig_node, patch, field_name)

    authorize_node_link_patch.__doc__ = original.__doc__
    api_utils.authorize_node_link_patch = authorize_node_link_patch


def _fix_rebuild_auto_lessee():
    from ironic.conductor import deployments
    lines, first_line = inspect.getsourcelines(deployments.start_deploy)
    tree = ast.parse(''.join(lines))
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef) and function.name == 'start_deploy', 'start_deploy moved: review fix 2'
    assigned = [n for n in ast.walk(function) if isinstance(n, ast.Name) and n.id == 'auto_lessee'
                and isinstance(n.ctx, ast.Store)]
    assert len(assigned) == 1, 'start_deploy no longer assigns auto_lessee once: review fix 2'
    ast.increment_lineno(tree, first_line - 1)
    has_docstring = isinstance(function.body[0], ast.Expr) and isinstance(function.body[0].value, ast.Constant)
    default = ast.parse('auto_lessee = False').body[0]
    ast.copy_location(default, function.body[0])
    function.body.insert(1 if has_docstring else 0, default)
    # Executed in the module's namespace: the decorators are applied again and the new function
    # replaces the old one there, where manager.py looks it up (deployments.start_deploy).
    exec(compile(tree, deployments.__file__, 'exec'), deployments.__dict__)
