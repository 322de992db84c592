#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "hympi/options.hpp"
#include "hympi/types.hpp"

namespace hympi {
namespace {

[[noreturn]] void bad_value(const char* variable, const char* value, const char* accepted) {
  throw Error(std::string("hympi: environment variable ") + variable + "='" + value +
              "' is not valid: it takes " + accepted + " (or unset it for the default)");
}

const char* env(const char* variable) {
  const char* value = std::getenv(variable);
  return value && *value ? value : nullptr;
}

long parse_integer(const char* variable, const char* value, long min, const char* accepted) {
  char* end = nullptr;
  errno = 0;
  long parsed = std::strtol(value, &end, 10);
  if (errno != 0 || *end != '\0' || parsed < min) bad_value(variable, value, accepted);
  return parsed;
}

double parse_seconds(const char* variable, const char* value) {
  char* end = nullptr;
  errno = 0;
  double parsed = std::strtod(value, &end);
  if (errno != 0 || *end != '\0' || !(parsed >= 0))
    bad_value(variable, value, "a number of seconds >= 0 (0 disables the watchdog)");
  return parsed;
}

bool parse_flag(const char* variable, const char* value) {
  if (!std::strcmp(value, "1") || !std::strcmp(value, "on") || !std::strcmp(value, "true"))
    return true;
  if (!std::strcmp(value, "0") || !std::strcmp(value, "off") || !std::strcmp(value, "false"))
    return false;
  bad_value(variable, value, "1/on/true or 0/off/false");
}

}  // namespace

Options Options::from_env() {
  Options o;
  if (const char* v = env("HYMPI_NODE_SIZE"))
    o.node_size = int(parse_integer("HYMPI_NODE_SIZE", v, 1,
                                    "a positive number of ranks per emulated node, e.g. 2"));
  if (const char* v = env("HYMPI_WAIT")) {
    if (!std::strcmp(v, "adaptive")) o.wait = WaitPolicy::adaptive;
    else if (!std::strcmp(v, "spin")) o.wait = WaitPolicy::spin;
    else if (!std::strcmp(v, "yield")) o.wait = WaitPolicy::yield;
    else if (!std::strcmp(v, "sleep")) o.wait = WaitPolicy::sleep;
    else bad_value("HYMPI_WAIT", v, "adaptive, spin, yield or sleep");
  }
  if (const char* v = env("HYMPI_TIMEOUT")) o.timeout_s = parse_seconds("HYMPI_TIMEOUT", v);
  if (const char* v = env("HYMPI_TREE")) {
    if (!std::strcmp(v, "binomial")) {
      o.tree = TreeShape::binomial;
    } else if (!std::strncmp(v, "kary:", 5)) {
      o.tree = TreeShape::kary;
      o.tree_arity = int(parse_integer("HYMPI_TREE", v + 5, 1, "binomial or kary:K with K in 1..16"));
      if (o.tree_arity > 16) bad_value("HYMPI_TREE", v, "binomial or kary:K with K in 1..16");
    } else {
      bad_value("HYMPI_TREE", v, "binomial or kary:K with K in 1..16");
    }
  }
  if (const char* v = env("HYMPI_TOPO_AWARE")) o.topology_aware = parse_flag("HYMPI_TOPO_AWARE", v);
  if (const char* v = env("HYMPI_BARRIER")) {
    if (!std::strcmp(v, "combining")) o.barrier = BarrierAlgorithm::combining;
    else if (!std::strcmp(v, "counter_tree")) o.barrier = BarrierAlgorithm::counter_tree;
    else if (!std::strcmp(v, "counter_flat")) o.barrier = BarrierAlgorithm::counter_flat;
    else bad_value("HYMPI_BARRIER", v, "combining, counter_tree or counter_flat");
  }
  if (const char* v = env("HYMPI_ORDERS")) {
    if (!std::strcmp(v, "tuned")) o.orders = MemoryOrders::tuned;
    else if (!std::strcmp(v, "seq_cst")) o.orders = MemoryOrders::seq_cst;
    else bad_value("HYMPI_ORDERS", v, "tuned or seq_cst");
  }
  if (const char* v = env("HYMPI_COLL_BUFFER"))
    o.collective_buffer_bytes = std::size_t(parse_integer(
        "HYMPI_COLL_BUFFER", v, 64, "a buffer size in bytes >= 64, e.g. 1048576"));
  if (const char* v = env("HYMPI_VERIFY")) o.verify = parse_flag("HYMPI_VERIFY", v);
  return o;
}

const char* name_of(WaitPolicy policy) {
  switch (policy) {
    case WaitPolicy::adaptive: return "adaptive";
    case WaitPolicy::spin: return "spin";
    case WaitPolicy::yield: return "yield";
    case WaitPolicy::sleep: return "sleep";
  }
  return "?";
}

const char* name_of(BarrierAlgorithm algorithm) {
  switch (algorithm) {
    case BarrierAlgorithm::combining: return "combining";
    case BarrierAlgorithm::counter_tree: return "counter_tree";
    case BarrierAlgorithm::counter_flat: return "counter_flat";
  }
  return "?";
}

const char* name_of(MemoryOrders orders) {
  return orders == MemoryOrders::tuned ? "tuned" : "seq_cst";
}

std::string describe(const Options& o) {
  std::string tree = o.tree == TreeShape::binomial ? "binomial" : "kary:" + std::to_string(o.tree_arity);
  return "node_size=" + (o.node_size ? std::to_string(o.node_size) : std::string("physical")) +
         " wait=" + name_of(o.wait) + " timeout=" + std::to_string(int(o.timeout_s)) +
         "s tree=" + tree + " barrier=" + name_of(o.barrier) + " orders=" + name_of(o.orders) +
         " coll_buffer=" + std::to_string(o.collective_buffer_bytes) +
         " verify=" + (o.verify ? "on" : "off");
}

}  // namespace hympi
