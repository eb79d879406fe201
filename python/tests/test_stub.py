"""The typed stub (vkcompute/__init__.pyi) mirrors the package: every public name, with the
runtime's docstrings."""

import ast
import inspect
from pathlib import Path

import vkcompute

STUB = Path(vkcompute.__file__).with_name("__init__.pyi")


def _stub():
    return ast.parse(STUB.read_text())


def _documented(tree):
    """{qualified name: docstring} of the stub's functions, classes and methods."""
    found = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            found[node.name] = ast.get_docstring(node)
            if isinstance(node, ast.ClassDef):
                for member in node.body:
                    if isinstance(member, ast.FunctionDef) and ast.get_docstring(member):
                        found[f"{node.name}.{member.name}"] = ast.get_docstring(member)
    return found


def test_the_stub_and_py_typed_are_in_the_package():
    assert STUB.is_file()
    assert STUB.with_name("py.typed").is_file()


def test_every_public_name_is_in_the_stub():
    tree = _stub()
    names = set(_documented(tree))
    for node in tree.body:
        if isinstance(node, (ast.AnnAssign,)):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    assert set(vkcompute.__all__) <= names, set(vkcompute.__all__) - names


def test_the_stub_docstrings_are_the_runtime_ones():
    tree = _stub()
    assert ast.get_docstring(tree) == inspect.getdoc(vkcompute)
    for name, doc in _documented(tree).items():
        obj = vkcompute
        for part in name.split("."):
            obj = getattr(obj, part)
        if isinstance(obj, property):
            obj = obj.fget
        runtime = inspect.getdoc(obj)
        if doc is None:
            continue
        assert doc == runtime, f"{name}: the stub's docstring differs from the runtime's"


def test_every_public_function_has_a_docstring():
    from vkcompute import nbody

    for module in (vkcompute, nbody):
        for name in getattr(module, "__all__", dir(module)):
            obj = getattr(module, name)
            if callable(obj) and not name.startswith("_"):
                assert inspect.getdoc(obj), f"{module.__name__}.{name}"
