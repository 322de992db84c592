// SPDX-License-Identifier: BSD-3-Clause
// hympi.Halo: the ghost update of a Pattern with one strategy, on numpy arrays passed
// zero-copy (vectors mode) or on its own buffers seen as numpy views (buffers mode,
// shared_field).
//
// Invariants: the arrays given to begin() stay held (buffer protocol) until end() returns,
// so they can neither be freed nor resized while hympi writes their ghosts; every numpy
// view of the Halo's memory holds a reference to the Halo and is counted (Child::view), and
// close() refuses (on every rank) while any rank holds one, since the memory goes with
// the handle.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "pattern.hpp"

namespace hympy {

using namespace nb::literals;

namespace {

class Halo : public Child {
 public:
  Halo(Pattern& pattern, const StrategyArg& strategy, int fields, const ModeArg& mode)
      : Child(pattern.context()), pattern_object_(nb::find(&pattern)), mode_(to_mode(mode)),
        type_(pattern.type()), elements_(pattern.array_elements()), apart_(pattern.apart()) {
    // A name goes to the C API as it is: an unknown one on some ranks is an error on every rank.
    if (const auto* name = std::get_if<std::string>(&strategy))
      blocking([&] { return hympi_halo_create_named(pattern.handle(), name->c_str(), fields, mode_, &handle_); });
    else
      blocking([&] { return hympi_halo_create(pattern.handle(), std::get<hympi_strategy>(strategy), fields, mode_, &handle_); });
    views_possible_ = mode_ == HYMPI_MODE_BUFFERS || this->strategy().first == HYMPI_STRATEGY_SHM_DIRECT;
  }
  ~Halo() override { free_quietly("Halo"); }

  hympi_halo handle() const {
    if (!handle_) throw Error("hympi: this Halo is closed (close() or its Context's close()); create a new one");
    check_not_finalized("Halo");
    return handle_;
  }
  bool closed() const { return handle_ == nullptr; }
  nb::object pattern() const { return pattern_object_; }
  hympi_halo_mode mode() const { return mode_; }

  /// Collective.
  void close() {
    if (!handle_) return;
    if (views_possible_) context().check_no_views(live_views(), "Halo.close");
    close_handle();
  }

  /// (running, requested)
  std::pair<hympi_strategy, hympi_strategy> strategy() const {
    std::pair<hympi_strategy, hympi_strategy> s;
    check(hympi_halo_strategy(handle(), &s.first, &s.second));
    return s;
  }

  void begin(nb::handle vectors, nb::handle recv) {
    Arrays a = refusing([&] { return arrays(vectors, recv, "Halo.begin"); });
    blocking([&] { return a.call(handle(), hympi_halo_begin, hympi_halo_begin_apart); });
    pending_ = std::move(a);
  }

  void end(nb::handle vectors, nb::handle recv) {
    Arrays a = refusing([&] { return arrays(vectors, recv, "Halo.end"); });
    if (!pending_.sends.empty() && !(a.same(pending_)))  // as the calls' order: this rank's, end() may follow
      throw Error("hympi: Halo.end: pass the same arrays as to Halo.begin, in the same order");
    blocking([&] { return a.call(handle(), hympi_halo_end, hympi_halo_end_apart); });
    pending_ = {};
  }

  void update(nb::handle vectors, nb::handle recv) {
    Arrays a = refusing([&] { return arrays(vectors, recv, "Halo.update"); });
    blocking([&] { return a.call(handle(), hympi_halo_update, hympi_halo_update_apart); });
  }

  /// Benchmark hook (bench/bindings/overhead.py): `count` updates of `vectors` through the
  /// C API alone, in a C++ loop, timed there; seconds.
  double time_c_updates(nb::handle vectors, int count) {
    const Arrays a = arrays(vectors, nb::none(), "Halo._time_c_updates");
    std::vector<void*> fields;
    for (const ArrayRef& f : a.sends) fields.push_back(f.data());
    double seconds = 0;
    blocking([&] {
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < count; ++i)
        if (const int code = hympi_halo_update(handle(), int(fields.size()), fields.data())) return code;
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return int(HYMPI_SUCCESS);
    });
    return seconds;
  }

  nb::object send_buffer(int neighbor) {
    void* data = nullptr;
    std::size_t elements = 0;
    check(hympi_halo_send_buffer(handle(), neighbor, &data, &elements));
    return view(data, elements, type_, false);
  }

  nb::object recv_buffer(int neighbor) {
    const void* data = nullptr;
    std::size_t elements = 0;
    check(hympi_halo_recv_buffer(handle(), neighbor, &data, &elements));
    return view(const_cast<void*>(data), elements, type_, true);
  }

  nb::object shared_field(int field) {
    void* data = nullptr;
    check(hympi_halo_shared_field(handle(), field, &data));
    return view(data, elements_.first, type_, false);
  }

 private:
  void free_handle() override {
    pending_ = {};
    blocking([&] { return hympi_halo_free(&handle_); });
  }

  /// The arrays of one call: `sends` alone (one array per field, updated in place) or
  /// `sends` read and `recvs` written (separate arrays).
  struct Arrays {
    std::vector<ArrayRef> sends, recvs;

    template <class One, class Apart>
    int call(hympi_halo halo, One one, Apart apart) const {
      std::vector<void*> s, r;
      for (const ArrayRef& a : sends) s.push_back(a.data());
      for (const ArrayRef& a : recvs) r.push_back(a.data());
      const int n = static_cast<int>(s.size());
      if (recvs.empty()) return one(halo, n, s.data());
      std::vector<const void*> read(s.begin(), s.end());
      return apart(halo, n, read.data(), r.data());
    }
    bool same(const Arrays& other) const {
      auto equal = [](const std::vector<ArrayRef>& x, const std::vector<ArrayRef>& y) {
        return std::equal(x.begin(), x.end(), y.begin(), y.end(),
                          [](const ArrayRef& a, const ArrayRef& b) { return a.data() == b.data(); });
      };
      return equal(sends, other.sends) && equal(recvs, other.recvs);
    }
  };

  /// `check()` (this binding's checks of an update's arrays); when it raises, this rank
  /// refuses the update (hympi_halo_refuse), so the ranks that wait for it raise too.
  template <class Check>
  auto refusing(Check check) -> decltype(check()) {
    try {
      return check();
    } catch (const std::exception& e) {
      if (handle_) hympi_halo_refuse(handle_, e.what());  // after MPI_Finalize: an error code, ignored
      throw;
    }
  }

  /// `vectors` (and `recv` unless None): one array, or a list or tuple of them (one per field).
  Arrays arrays(nb::handle vectors, nb::handle recv, const std::string& call) const {
    handle();
    const bool apart = !recv.is_none();
    if (apart_ && !apart)
      throw Error("hympi: " + call + ": the pattern has separate send and receive arrays (from_lists_apart): pass "
                  "the send and the receive arrays, " + call.substr(5) + "(send, recv)");
    Arrays result;
    result.sends = list(vectors, call + (apart ? ": send" : ": vectors"), elements_.first, !apart,
                        apart ? "send_points * chunk of the pattern" : "local_points * chunk of the pattern");
    if (apart) result.recvs = list(recv, call + ": recv", elements_.second, true, "recv_points * chunk of the pattern");
    return result;
  }

  std::vector<ArrayRef> list(nb::handle arrays, const std::string& what, std::size_t count, bool writable,
                             const std::string& why) const {
    std::vector<ArrayRef> result;
    auto add = [&](nb::handle v, const std::string& name) {
      ArrayRef array(v, name, writable);
      array.expect_type(type_, "the pattern's");
      array.expect_count(count, why);
      result.push_back(std::move(array));
    };
    if (PyList_Check(arrays.ptr()) || PyTuple_Check(arrays.ptr())) {
      for (nb::handle v : arrays) add(v, what + "[" + std::to_string(result.size()) + "]");
    } else {
      add(arrays, what);
    }
    return result;
  }

  nb::object pattern_object_;
  hympi_halo_mode mode_;
  hympi_datatype type_;
  std::pair<std::size_t, std::size_t> elements_;  // of a send and of a receive array
  bool apart_;                                     // the pattern's arrays are separate
  hympi_halo handle_ = nullptr;
  bool views_possible_ = false;
  Arrays pending_;  // the arrays between begin() and end()
};

#define HYMPY_VECTORS "numpy.ndarray | collections.abc.Sequence[numpy.ndarray]"

}  // namespace

void bind_halo(nb::module_& m) {
  nb::class_<hympi_halo_stats>(m, "HaloStats",
                               "What one update sends from this rank (all fields): messages and payload bytes.")
      .def_ro("internode_messages", &hympi_halo_stats::internode_messages,
              "MPI messages to other nodes (aggregated: the node-pair messages it sends).")
      .def_ro("internode_bytes", &hympi_halo_stats::internode_bytes)
      .def_ro("intranode_messages", &hympi_halo_stats::intranode_messages)
      .def_ro("intranode_bytes", &hympi_halo_stats::intranode_bytes)
      .def_ro("single_copy_messages", &hympi_halo_stats::single_copy_messages,
              "Of the intranode messages, those the receiver reads straight from this rank's array.")
      .def("__repr__", [](const hympi_halo_stats& s) {
        return "HaloStats(internode " + std::to_string(s.internode_messages) + " messages / " +
               std::to_string(s.internode_bytes) + " B, intranode " + std::to_string(s.intranode_messages) +
               " messages / " + std::to_string(s.intranode_bytes) + " B, " + std::to_string(s.single_copy_messages) +
               " single-copy)";
      });

  nb::class_<Halo>(m, "Halo",
                   "The ghost update of a Pattern: each rank's array (owned points, then ghost copies of its "
                   "neighbours' points) gets its ghosts from their owners. Collective to create and close; "
                   "every rank calls begin/end (or update) the same number of times. Between begin(v) and "
                   "end(v) compute on owned points, but do not write points that are sent nor read ghosts.")
      .def(nb::init<Pattern&, const StrategyArg&, int, const ModeArg&>(), "pattern"_a,
           "strategy"_a = HYMPI_STRATEGY_SHM, "fields"_a = 1, "mode"_a = HYMPI_MODE_VECTORS,
           "Collective; same strategy, fields, mode and pattern on every rank. `fields`: arrays per update "
           "(one synchronization, several payloads). `mode`: 'vectors' (begin/end move numpy arrays) or "
           "'buffers' (zero copy: acquire, send_buffer, begin_buffers, end_buffers, recv_buffer).")
      .def("begin", &Halo::begin, "vectors"_a, "recv"_a = nb::none(),
           nb::sig("def begin(self, vectors: " HYMPY_VECTORS ", recv: " HYMPY_VECTORS " | None = None) -> None"),
           "Starts an update of `vectors`: one array (fields=1) or one per field, each of the pattern's dtype, "
           "C-contiguous, writable, local_points * chunk elements (any shape). Used in place, never copied; "
           "held until end(). With `recv` (a pattern from from_lists_apart): `vectors` are the send arrays "
           "(send_points * chunk, only read), `recv` the receive arrays (recv_points * chunk; only the "
           "received points are written).")
      .def("end", &Halo::end, "vectors"_a, "recv"_a = nb::none(),
           nb::sig("def end(self, vectors: " HYMPY_VECTORS ", recv: " HYMPY_VECTORS " | None = None) -> None"),
           "Completes the update begun with the same arrays: their ghosts (or `recv`) hold the owners' values.")
      .def("update", &Halo::update, "vectors"_a, "recv"_a = nb::none(),
           nb::sig("def update(self, vectors: " HYMPY_VECTORS ", recv: " HYMPY_VECTORS " | None = None) -> None"),
           "begin(vectors, recv) then end(vectors, recv).")
      .def("_time_c_updates", &Halo::time_c_updates, "vectors"_a, "count"_a,
           "Benchmark hook: seconds for `count` updates through the C API alone (bench/bindings/overhead.py).")
      .def("acquire", [](Halo& h) { blocking([&] { return hympi_halo_acquire(h.handle()); }); },
           "Buffers mode: ends the reads of the previous update's receive buffers; then fill the send buffers.")
      .def("begin_buffers", [](Halo& h) { blocking([&] { return hympi_halo_begin_buffers(h.handle()); }); },
           "Buffers mode: sends the filled send buffers.")
      .def("end_buffers", [](Halo& h) { blocking([&] { return hympi_halo_end_buffers(h.handle()); }); },
           "Buffers mode: waits for the receive buffers.")
      .def("send_buffer", &Halo::send_buffer, "neighbor"_a,
           nb::sig("def send_buffer(self, neighbor: int) -> numpy.ndarray"),
           "Buffers mode: a writable numpy view of the message to neighbour `neighbor` (index in "
           "pattern.neighbors): field 0, then field 1, ...; per point of its send list, `chunk` values.")
      .def("recv_buffer", &Halo::recv_buffer, "neighbor"_a,
           nb::sig("def recv_buffer(self, neighbor: int) -> numpy.ndarray"),
           "Buffers mode: a read-only numpy view of the message from neighbour `neighbor`, valid until the next "
           "acquire().")
      .def("shared_field", &Halo::shared_field, "field"_a = 0,
           nb::sig("def shared_field(self, field: int = 0) -> numpy.ndarray"),
           "shm_direct: field `field`'s array in shared memory (local_points * chunk elements, zeroed), the one "
           "to pass to begin/end/update.")
      .def_prop_ro("strategy", [](const Halo& h) { return h.strategy().first; },
                   "The strategy that runs (automatic's choice).")
      .def_prop_ro("requested_strategy", [](const Halo& h) { return h.strategy().second; })
      .def_prop_ro("fields", [](const Halo& h) {
        int fields = 0;
        check(hympi_halo_fields(h.handle(), &fields));
        return fields;
      })
      .def_prop_ro("mode", &Halo::mode)
      .def_prop_ro("stats", [](const Halo& h) {
        hympi_halo_stats stats;
        check(hympi_halo_stats_get(h.handle(), &stats));
        return stats;
      })
      .def_prop_ro(
          "trials",
          [](const Halo& h) {
            int count = 0;
            check(hympi_halo_trials(h.handle(), 0, nullptr, nullptr, &count));
            std::vector<hympi_strategy> strategies(static_cast<std::size_t>(count));
            std::vector<double> seconds(static_cast<std::size_t>(count));
            check(hympi_halo_trials(h.handle(), count, strategies.data(), seconds.data(), &count));
            std::vector<std::pair<hympi_strategy, double>> result;
            for (std::size_t i = 0; i < strategies.size(); ++i) result.emplace_back(strategies[i], seconds[i]);
            return result;
          },
          "automatic's measurements (strategy, seconds per update on the slowest rank), in the order tried; "
          "empty for the other strategies.")
      .def_prop_ro("pattern", &Halo::pattern, nb::sig("def pattern(self) -> Pattern"))
      .def("close", &Halo::close,
           "Collective: frees the Halo (numpy views of its buffers must be gone: hympi.Error on every rank "
           "otherwise). A second close() does nothing; anything else on a closed Halo raises hympi.Error.")
      .def_prop_ro("closed", &Halo::closed)
      .def("__enter__", [](nb::handle self) { return nb::borrow(self); }, nb::sig("def __enter__(self) -> Halo"))
      .def("__exit__", [](Halo& h, nb::handle type, nb::handle, nb::handle) {
             if (type.is_none()) h.close();
           },
           "exc_type"_a.none(), "exc"_a.none(), "traceback"_a.none(), kExitDoc);
}

}  // namespace hympy
