// SPDX-License-Identifier: BSD-3-Clause
// An exchange protocol for the memory orders the options ask for (tuned, or all seq_cst
// for the ablation of Quaranta & Maddegedara (2021); -DHYMPI_FORCE_SEQ_CST forces the
// latter).
#pragma once

#include <memory>
#include <utility>

#include "core/memory_order.hpp"
#include "halo/exchange.hpp"
#include "hympi/options.hpp"

namespace hympi::halo {

template <template <class> class Kind, class... Args>
std::unique_ptr<Exchange> make_for_orders(MemoryOrders orders, Args&&... args) {
  if (core::kForceSeqCst || orders == MemoryOrders::seq_cst)
    return std::make_unique<Kind<core::SeqCstOrders>>(std::forward<Args>(args)...);
  return std::make_unique<Kind<core::TunedOrders>>(std::forward<Args>(args)...);
}

}  // namespace hympi::halo
