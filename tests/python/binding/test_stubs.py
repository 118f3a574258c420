"""The hand-kept stubs (python/lightrail/_lightrail.pyi) name exactly what
the compiled module has: every class, function and constant, and every
public member of each class."""

import ast
import inspect
import os

import lightrail
from lightrail import _lightrail
from conftest import ROOT

STUB = os.path.join(ROOT, "python", "lightrail", "_lightrail.pyi")


def stub_tree():
    with open(STUB) as f:
        return ast.parse(f.read())


def members(node):
    names = set()
    for item in node.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(item.name)
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            names.add(item.target.id)
    return names


def public(obj):
    own = set()
    for klass in inspect.getmro(obj):
        if klass.__module__ == "builtins" or klass is Exception:
            continue
        own |= {n for n in vars(klass) if not n.startswith("_")}
    return own


def test_top_level_names_match():
    tree = stub_tree()
    in_stub = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    in_stub |= {n.target.id for n in tree.body if isinstance(n, ast.AnnAssign) and not n.target.id.startswith("_")}
    in_module = {n for n in vars(_lightrail) if not n.startswith("_")}
    assert in_stub == in_module
    assert set(lightrail.__all__) == in_module


def test_class_members_match():
    for node in stub_tree().body:
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(_lightrail, node.name)
        if issubclass(cls, BaseException):
            continue  # attributes set per instance
        stub = {n for n in members(node) if not n.startswith("_")}
        actual = public(cls)
        if node.name == "CancelOutcome":
            actual -= {"name", "value"}
            stub -= {"name", "value"}
        assert stub == actual, node.name
        for dunder in {n for n in members(node) if n.startswith("__") and n != "__init__"}:
            assert hasattr(cls, dunder), f"{node.name}.{dunder}"


def test_exception_bases_match():
    for node in stub_tree().body:
        if isinstance(node, ast.ClassDef) and node.bases:
            cls = getattr(_lightrail, node.name)
            # A Name (Error) or an Attribute (builtins.TimeoutError).
            bases = [b.id if isinstance(b, ast.Name) else b.attr for b in node.bases
                     if isinstance(b, (ast.Name, ast.Attribute))]
            assert [b.__name__ for b in cls.__bases__] == bases, node.name
