// SPDX-License-Identifier: BSD-3-Clause
// hympi.Options (hympi_options, docs/settings.md) and the enums of its fields; its fields
// and their types: HYMPI_OPTIONS in hympi/names.h.
#include "bindings.hpp"
#include "common.hpp"

#include <type_traits>

namespace hympy {

using namespace nb::literals;

namespace {

std::string describe(const hympi_options& options) {
  std::size_t length = 0;
  check(hympi_options_describe(&options, nullptr, 0, &length));
  std::string text(length + 1, '\0');
  check(hympi_options_describe(&options, text.data(), text.size(), nullptr));
  text.resize(length);
  return text;
}

/// A field of hympi_options that holds a T (a row of HYMPI_OPTIONS): read and written as
/// it is, or as bool for a 0/1 field, or as the enumeration T for an enumeration's int.
template <class T, class C>
void bind_field(nb::class_<hympi_options>& cls, const char* name, C hympi_options::*field, const char* doc) {
  if constexpr (std::is_same_v<T, C>)
    cls.def_rw(name, field, doc);
  else
    cls.def_prop_rw(
        name, [field](const hympi_options& o) { return static_cast<T>(o.*field); },
        [field](hympi_options& o, T value) { o.*field = static_cast<C>(value); }, doc);
}

}  // namespace

void bind_options(nb::module_& m) {
  bind_enum<hympi_wait>(m, "WaitPolicy", "How a rank waits for a peer (HYMPI_WAIT).",
                        {HYMPI_WAIT_POLICIES(HYMPY_MEMBER)});
  bind_enum<hympi_tree>(m, "TreeShape", "Shape of the intranode tree (HYMPI_TREE).", {HYMPI_TREE_SHAPES(HYMPY_MEMBER)});
  bind_enum<hympi_barrier_algorithm>(m, "BarrierAlgorithm", "Barrier inside a node (HYMPI_BARRIER).",
                                     {HYMPI_BARRIER_ALGORITHMS(HYMPY_MEMBER)});
  bind_enum<hympi_orders>(m, "MemoryOrders", "Memory orders of the protocols (HYMPI_ORDERS).",
                          {HYMPI_MEMORY_ORDERS(HYMPY_MEMBER)});

  auto cls = nb::class_<hympi_options>(
      m, "Options",
      "Run-time choices of a Context; each field has a HYMPI_* environment variable (docs/settings.md). "
      "Options(**fields) starts from the built-in defaults, Options.from_env() from the environment.");
  cls.def(
         "__init__",
         [](hympi_options* self, nb::kwargs fields) {
           hympi_options defaults;
           check(hympi_options_default(&defaults));
           nb::object options = nb::cast(defaults);  // set through the typed properties below
           for (auto [name, value] : fields) {
             if (!nb::hasattr(options, name))
               throw nb::type_error(("hympi: Options has no field '" + nb::cast<std::string>(name) + "'").c_str());
             nb::setattr(options, name, value);
           }
           new (self) hympi_options(nb::cast<const hympi_options&>(options));
         },
         nb::sig("def __init__(self, **fields: object) -> None"))
      .def_static(
          "from_env",
          [] {
            hympi_options options;
            check(hympi_options_from_env(&options));
            return options;
          },
          "The defaults overridden by the HYMPI_* variables (a malformed one raises hympi.Error naming it).")
      .def("__repr__", [](const hympi_options& o) { return "Options(" + describe(o) + ")"; })
      .def("__eq__", [](const hympi_options& a, const hympi_options& b) {
#define HYMPY_SAME_FIELD(field, c_type, type, doc) a.field == b.field &&
        return HYMPI_OPTIONS(HYMPY_SAME_FIELD) true;
#undef HYMPY_SAME_FIELD
      });
#define HYMPY_FIELD(field, c_type, type, doc) bind_field<type>(cls, #field, &hympi_options::field, doc ".");
  HYMPI_OPTIONS(HYMPY_FIELD)
#undef HYMPY_FIELD
}

}  // namespace hympy
