// SPDX-License-Identifier: BSD-3-Clause
#include "core/coll/call_board.hpp"

#include <algorithm>

#include "core/memory_order.hpp"

namespace hympi::core {

template <class Orders>
CallBoard<Orders>::CallBoard(int self, std::vector<Participant> participants, WaitConfig wait,
                             std::vector<int> world_ranks, bool resumes)
    : self_(self),
      participants_(std::move(participants)),
      wait_(wait),
      world_ranks_(std::move(world_ranks)),
      resumes_(resumes) {}

template <class Orders>
void CallBoard<Orders>::post(const CallDesc& call, LeaderStep step, bool flat, const Status& own) {
  if (broken_) {
    const Status refusal = Status::broken(world_ranks_[0], call);
    if (self_ == 0 && step) {
      Status shared = refusal;
      try {
        step(participants_[0].buffer, 0, shared);  // the other nodes' leaders learn it
      } catch (...) {
      }  // this rank's error is the refusal either way
    }
    throw Error(refusal.message());
  }
  Channel& mine = participants_[self_].block->posted;
  ++calls_;
  if (!posted_any_ || !(call == last_) || flat != last_flat_ || own.failed() || last_failed_) {
    mine.seq.store(2 * calls_ - 1, Orders::hint);  // odd: being written (ordered by the releases below)
    uint64_t words[kEntryWords] = {};
    call.to_words(words);
    words[kFlatWord] = flat;
    own.to_words(words + kOwnWords);
    for (int i = 0; i < kEntryWords; ++i)
      mine.words[i].store(words[i], Orders::publish);  // release: a scan reading it sees the odd number
    last_ = call;
    last_flat_ = flat;
    last_failed_ = own.failed();
    posted_any_ = true;
  }
  mine.seq.store(2 * calls_, Orders::publish);  // release: the words; nobody sleeps on it
}

template <class Orders>
bool CallBoard<Orders>::disagreement() {
  const std::size_t n = participants_.size();
  const uint64_t posted = 2 * calls_;
  std::vector<CallDesc> calls(n);
  std::vector<int> protocols(n);  // 0: a tree collective, 1: a barrier's flags, 2: a flat call
  std::vector<Status> own(n);
  for (std::size_t i = 0; i < n; ++i) {
    Channel& entry = participants_[i].block->posted;
    if (entry.seq.load(Orders::observe) != posted) return false;  // acquire: its words; not posted yet
    uint64_t words[kEntryWords];
    for (int w = 0; w < kEntryWords; ++w)
      words[w] = entry.words[w].load(Orders::observe);  // acquire: a later post's odd number
    calls[i] = CallDesc::from_words(words);
    protocols[i] = calls[i].kind == CallKind::barrier ? 1 : words[kFlatWord] != 0 ? 2 : 0;
    own[i] = Status::from_words(words + kOwnWords);
  }
  for (std::size_t i = 0; i < n; ++i)  // hint: after the acquires above, a later post shows
    if (participants_[i].block->posted.seq.load(Orders::hint) != posted) return false;
  for (std::size_t i = 1; i < n; ++i)
    if (protocols[i] != protocols[0]) {
      // A rank's own bad argument explains the disagreement (a binding that refused an
      // argument calls with a count of its own): the first such rank's failure, as the tree
      // reports it; else the mismatch.
      const auto failed = std::find_if(own.begin(), own.end(), [](const Status& x) { return x.failed(); });
      found_ = failed != own.end() ? *failed : Status::mismatch(world_ranks_[0], calls[0], world_ranks_[i], calls[i]);
      in_barrier_ = std::find(protocols.begin(), protocols.end(), 1) != protocols.end();
      return true;
    }
  return false;
}

template <class Orders>
void CallBoard<Orders>::fail(LeaderStep step) {
  Channel& verdict = participants_[0].block->verdict;
  Status status = found_;
  if (self_ == 0) {
    try {
      if (step) step(participants_[0].buffer, 0, status);  // the other nodes' leaders learn it
    } catch (...) {
      status = Status::leader_error(world_ranks_[0], found_.a);
    }
    store_words<Orders>(status, verdict.words);
    publish<Orders>(verdict, calls_);  // release: the words above
  } else {
    wait_at_least<Orders>(verdict, calls_, wait_, node_site("collective: the leader's verdict", world_ranks_, self_, 0));
    status = load_words<Orders, Status>(verdict.words);  // after the seq acquire
  }
  // Nobody leaves before everyone has the verdict: a rank gone on to the next call would
  // write flags and channels that a rank still waiting in this one would take for its own.
  Channel& left = participants_[0].block->failed;
  ++failures_;
  left.seq.fetch_add(1, Orders::publish);  // release: done with this call's channels
  wake_sleepers<Orders>(left);
  wait_at_least<Orders>(left, failures_ * participants_.size(), wait_,
                        node_site("collective: the node's ranks leaving a failed call", world_ranks_, self_, 0));
  broken_ = !resumes_ && in_barrier_;  // a counter holds a stray increment
  throw Error(status.message());
}

template class CallBoard<TunedOrders>;
template class CallBoard<SeqCstOrders>;

}  // namespace hympi::core
