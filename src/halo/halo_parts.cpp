// SPDX-License-Identifier: BSD-3-Clause
#include "halo/halo_parts.hpp"

#include "mpi/coll/context_access.hpp"
#include "mpi/support/mpi_check.hpp"

namespace hympi::halo {

HaloParts::HaloParts(const Pattern::Data& pattern, int fields, HaloMode mode)
    : pattern_(pattern),
      fields_(fields),
      mode_(mode),
      tag_ranges_(&detail::ContextAccess::tag_ranges(*pattern.context)),
      arena_(detail::ContextAccess::arena(*pattern.context)) {
  told_ = node_internode_neighbors(pattern, pattern.context->topology());
  tags_ = tag_ranges_->take();  // last: nothing after it can throw
}

HaloParts::~HaloParts() { free(); }

void HaloParts::free() {
  // After a refusal, messages nobody will receive may wait on the Halo's tags (a refusal
  // sent to a rank that never probed for it, data for a receive a refusal ended): when any
  // rank posted or found a refusal, every rank gives the tag range back dirty, never to be
  // used again (mpi/support/tag_ranges.hpp).
  int refused = refusals_ && refusals_->seen() ? 1 : 0;
  if (tags_.comm != MPI_COMM_NULL && !parts_.empty()) {
    for (auto& part : parts_) part->cancel_receives();
    // Also the wait for every rank's receives and reads to be over: sends still in flight
    // never match (Exchange), and no rank touches the shared regions returned below.
    MPI_Allreduce(MPI_IN_PLACE, &refused, 1, MPI_INT, MPI_MAX, tags_.comm);
    for (auto& part : parts_) part->close(refused != 0);
  }
  parts_.clear();
  refusals_.reset();
  vectors_.clear();
  arena_.release();
  if (tags_.comm != MPI_COMM_NULL) tag_ranges_->give_back(tags_, refused != 0);
  tags_ = {};
}

void HaloParts::build(Strategy strategy) {
  parts_.clear();
  refusals_.reset();
  vectors_.clear();
  Context& context = *pattern_.context;
  const Topology& topo = context.topology();
  arena_.release();  // automatic's trials: every rank rebuilds, the regions of the last one go
  refusals_ = std::make_unique<Refusals>(pattern_, told_, tags_.comm, tags_.tag + Tag::refusal, arena_);
  if (!info(strategy).private_vectors)
    for (int f = 0; f < fields_; ++f)
      vectors_.push_back(arena_.allocate(std::size_t(pattern_.send_points) * pattern_.point_bytes, 4096));
  core::WaitConfig wait = detail::ContextAccess::wait(context);
  wait.interrupt = refusals_.get();  // every wait of the parts ends when a refusal reaches it
  // Zero-copy Halos' data lives in the slots: no single copy.
  const std::size_t single_copy = mode_ == HaloMode::vectors ? context.options().single_copy_bytes : 0;
  const ExchangeSetup setup{pattern_,  topo,   tags_.comm, tags_.tag, arena_, vectors_, wait, *refusals_,
                            context.options().orders, fields_, single_copy};
  parts_ = info(strategy).make(setup);
  stats_ = {};
  for (const auto& part : parts_) add_stats(stats_, part->stats());
}

void HaloParts::begin(Arrays arrays) {
  refusals_->check_node();
  for (auto& part : parts_) part->begin(arrays);
}

void HaloParts::end(Arrays arrays) {
  for (auto it = parts_.rbegin(); it != parts_.rend(); ++it) (*it)->end(arrays);
}

bool HaloParts::arrived() {
  refusals_->check();  // a refusal ends a poll as it ends a wait
  for (auto& part : parts_)
    if (!part->arrived()) return false;
  return true;
}

void HaloParts::update(Arrays arrays) {
  begin(arrays);
  end(arrays);
}

void HaloParts::defer_release() {
  for (auto& part : parts_) part->defer_release();
}

void HaloParts::acquire() {
  for (auto& part : parts_) part->release_received();
  for (auto& part : parts_) part->wait_sendable();
}

std::optional<MessageBuffers> HaloParts::buffers(std::size_t index) {
  for (auto& part : parts_)
    if (auto b = part->buffers(index)) return b;
  return std::nullopt;
}

}  // namespace hympi::halo
