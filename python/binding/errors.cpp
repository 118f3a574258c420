// The driver's exception hierarchy (driver/include/lightrail/errors.hpp) as
// Python classes of the same names and the same parents, lightrail.Error
// (a RuntimeError) at the root. The C++ exception's details travel along as
// attributes: `problems` (FormatError, ValidationError: each with `where`
// and `message`), `owner` (LeaseError), `flags` (CommitError).
#include "lightrail/errors.hpp"

#include <pybind11/stl.h>

#include <exception>
#include <string>
#include <vector>

#include "binding.hpp"

namespace py = pybind11;

namespace lightrail::python {
namespace {

// Class objects live as long as the interpreter: the module holds a
// reference too, and translators may run until it ends.
struct Classes {
  PyObject* error = nullptr;
  PyObject* transport = nullptr;
  PyObject* format = nullptr;
  PyObject* validation = nullptr;
  PyObject* verify = nullptr;
  PyObject* busy = nullptr;
  PyObject* lease = nullptr;
  PyObject* commit = nullptr;
  PyObject* timeout = nullptr;
};
Classes classes;

PyObject* make_class(py::module_& m, const char* name, PyObject* base, const char* doc) {
  const std::string qualified = std::string("lightrail.") + name;
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (cls == nullptr) throw py::error_already_set();
  m.add_object(name, py::handle(cls));  // add_object takes its own reference
  return cls;
}

py::list problem_list(const std::vector<Problem>& problems) {
  py::list out;
  for (const Problem& p : problems) out.append(py::cast(p));
  return out;
}

// Raises cls(message) with the given attributes set on the instance.
void raise(PyObject* cls, const std::exception& e,
           std::initializer_list<std::pair<const char*, py::object>> attrs) {
  py::object instance = py::reinterpret_borrow<py::object>(cls)(e.what());
  for (const auto& [name, value] : attrs) instance.attr(name) = value;
  PyErr_SetObject(cls, instance.ptr());
}

}  // namespace

void bind_errors(py::module_& m) {
  classes.error =
      make_class(m, "Error", PyExc_RuntimeError, "Base of every error the lightrail driver raises.");
  classes.transport = make_class(m, "TransportError", classes.error,
                                 "The connection to a board failed, or the board answered with an error.");
  classes.format =
      make_class(m, "FormatError", classes.error,
                 "Malformed input (schedule JSON, a URI, a fabric file); `problems` names each field.");
  classes.validation =
      make_class(m, "ValidationError", classes.error,
                 "The schedule does not fit the board; nothing was written. See `problems`.");
  classes.verify =
      make_class(m, "VerifyError", classes.error, "What the board holds differs from what was written.");
  classes.busy = make_class(m, "BoardBusyError", classes.error,
                            "The board is busy with another writer's work; nothing was changed.");
  classes.lease = make_class(m, "LeaseError", classes.busy,
                             "Another writer holds the board's lease; `owner` is its token (0: none).");
  classes.commit = make_class(m, "CommitError", classes.error,
                              "The board refused a commit; `flags` names the ERROR flags it raised.");
  // Both lightrail's and Python's: `except TimeoutError` catches it too.
  PyObject* timeout_bases = PyTuple_Pack(2, classes.error, PyExc_TimeoutError);
  if (timeout_bases == nullptr) throw py::error_already_set();
  classes.timeout = make_class(m, "TimeoutError", timeout_bases,
                               "A wait ran out of time before what it waited for happened (a swap).");
  Py_DECREF(timeout_bases);

  // Most derived first: the first matching catch decides the class.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const LeaseError& e) {
      raise(classes.lease, e, {{"owner", py::int_(e.owner())}});
    } catch (const BoardBusyError& e) {
      raise(classes.busy, e, {});
    } catch (const ValidationError& e) {
      raise(classes.validation, e, {{"problems", problem_list(e.problems())}});
    } catch (const FormatError& e) {
      raise(classes.format, e, {{"problems", problem_list(e.problems())}});
    } catch (const CommitError& e) {
      raise(classes.commit, e, {{"flags", py::cast(e.flags())}});
    } catch (const TimeoutError& e) {
      raise(classes.timeout, e, {});
    } catch (const VerifyError& e) {
      raise(classes.verify, e, {});
    } catch (const TransportError& e) {
      raise(classes.transport, e, {});
    } catch (const Error& e) {
      raise(classes.error, e, {});
    }
  });
}

}  // namespace lightrail::python
