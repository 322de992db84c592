// SPDX-License-Identifier: BSD-3-Clause
// hympi.Options (hympi_options, docs/settings.md) and the enums of its fields.
#include "bindings.hpp"
#include "common.hpp"

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

/// A field of enum type E stored as an int in hympi_options.
template <class E>
auto enum_field(int hympi_options::*field) {
  return std::make_pair([field](const hympi_options& o) { return static_cast<E>(o.*field); },
                        [field](hympi_options& o, E value) { o.*field = static_cast<int>(value); });
}

/// A 0/1 field as bool.
auto bool_field(int hympi_options::*field) {
  return std::make_pair([field](const hympi_options& o) { return o.*field != 0; },
                        [field](hympi_options& o, bool value) { o.*field = value ? 1 : 0; });
}

template <class Class, class Field>
void property(Class& cls, const char* name, Field field, const char* doc) {
  cls.def_prop_rw(name, field.first, field.second, doc);
}

}  // namespace

void bind_options(nb::module_& m) {
  nb::enum_<hympi_wait>(m, "WaitPolicy", "How a rank waits for a peer (HYMPI_WAIT).")
      .value("adaptive", HYMPI_WAIT_ADAPTIVE)
      .value("spin", HYMPI_WAIT_SPIN)
      .value("yield_", HYMPI_WAIT_YIELD)
      .value("sleep", HYMPI_WAIT_SLEEP);
  nb::enum_<hympi_tree>(m, "TreeShape", "Shape of the intranode tree (HYMPI_TREE).")
      .value("kary", HYMPI_TREE_KARY)
      .value("binomial", HYMPI_TREE_BINOMIAL);
  nb::enum_<hympi_barrier_algorithm>(m, "BarrierAlgorithm", "Barrier inside a node (HYMPI_BARRIER).")
      .value("combining", HYMPI_BARRIER_COMBINING)
      .value("counter_tree", HYMPI_BARRIER_COUNTER_TREE)
      .value("counter_flat", HYMPI_BARRIER_COUNTER_FLAT)
      .value("dissemination", HYMPI_BARRIER_DISSEMINATION);
  nb::enum_<hympi_orders>(m, "MemoryOrders", "Memory orders of the protocols (HYMPI_ORDERS).")
      .value("tuned", HYMPI_ORDERS_TUNED)
      .value("seq_cst", HYMPI_ORDERS_SEQ_CST);

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
      .def_rw("node_size", &hympi_options::node_size,
              "HYMPI_NODE_SIZE: emulated nodes of this many consecutive ranks; 0: real nodes.")
      .def_rw("timeout_s", &hympi_options::timeout_s, "HYMPI_TIMEOUT: watchdog seconds; 0 disables it.")
      .def_rw("tree_arity", &hympi_options::tree_arity, "K of HYMPI_TREE=kary:K.")
      .def_rw("single_copy_bytes", &hympi_options::single_copy_bytes,
              "HYMPI_SINGLE_COPY: smallest ghost-update message read with one copy; 0: never.")
      .def_rw("collective_buffer_bytes", &hympi_options::collective_buffer_bytes,
              "HYMPI_COLL_BUFFER: per-rank shared buffer of the collectives.")
      .def("__repr__", [](const hympi_options& o) { return "Options(" + describe(o) + ")"; })
      .def("__eq__", [](const hympi_options& a, const hympi_options& b) {
        return a.node_size == b.node_size && a.wait == b.wait && a.timeout_s == b.timeout_s && a.tree == b.tree &&
               a.tree_arity == b.tree_arity && a.topology_aware == b.topology_aware && a.barrier == b.barrier &&
               a.orders == b.orders && a.collective_buffer_bytes == b.collective_buffer_bytes && a.verify == b.verify &&
               a.single_copy_bytes == b.single_copy_bytes;
      });
  property(cls, "wait", enum_field<hympi_wait>(&hympi_options::wait), "HYMPI_WAIT.");
  property(cls, "tree", enum_field<hympi_tree>(&hympi_options::tree), "HYMPI_TREE.");
  property(cls, "barrier", enum_field<hympi_barrier_algorithm>(&hympi_options::barrier), "HYMPI_BARRIER.");
  property(cls, "orders", enum_field<hympi_orders>(&hympi_options::orders), "HYMPI_ORDERS.");
  property(cls, "topology_aware", bool_field(&hympi_options::topology_aware), "HYMPI_TOPO_AWARE.");
  property(cls, "verify", bool_field(&hympi_options::verify), "HYMPI_VERIFY.");
}

}  // namespace hympy
