// SPDX-License-Identifier: BSD-3-Clause
#include "core/messages.hpp"

#include <atomic>
#include <cstdio>

#include "hympi/messages.hpp"

namespace hympi {
namespace {

struct Sink {
  MessageHandler handler;
  void* user_data;
};
// Read by any thread that emits (the watchdog's helper thread too): one atomic pointer to
// an immutable sink, replaced whole. Sinks are never freed (a handful per process).
std::atomic<const Sink*> g_sink{new Sink{&default_message_handler, nullptr}};

}  // namespace

void default_message_handler(const char* message, void*) {
  std::fprintf(stderr, "%s\n", message);
  std::fflush(stderr);
}

void set_message_handler(MessageHandler handler, void* user_data) {
  g_sink.store(new Sink{handler, user_data}, std::memory_order_release);  // release: the sink's words with it
}

namespace core {

void emit_message(const std::string& message) {
  const Sink* sink = g_sink.load(std::memory_order_acquire);  // acquire: pairs with set_message_handler
  if (sink->handler) sink->handler(message.c_str(), sink->user_data);
}

}  // namespace core
}  // namespace hympi
