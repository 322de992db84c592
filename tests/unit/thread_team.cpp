#include "thread_team.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <thread>

namespace hympi::test {

ThreadTeam::ThreadTeam(int size, std::size_t buffer_bytes) {
  for (int r = 0; r < size; ++r) {
    void* block = std::aligned_alloc(alignof(core::CollectiveBlock), sizeof(core::CollectiveBlock));
    std::size_t rounded = (buffer_bytes + 4095) / 4096 * 4096;
    void* buffer = std::aligned_alloc(4096, rounded ? rounded : 4096);
    allocations_.push_back(block);
    allocations_.push_back(buffer);
    participants_.push_back({new (block) core::CollectiveBlock(), static_cast<std::byte*>(buffer)});
  }
}

ThreadTeam::~ThreadTeam() {
  for (auto& p : participants_) p.block->~CollectiveBlock();
  for (void* a : allocations_) std::free(a);
}

std::vector<int> ThreadTeam::ranks() const {
  std::vector<int> r(participants_.size());
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = int(i);
  return r;
}

void ThreadTeam::run(const std::function<void(int)>& body) {
  std::vector<std::exception_ptr> errors(participants_.size());
  std::vector<std::thread> threads;
  for (int r = 0; r < size(); ++r)
    threads.emplace_back([&, r] {
      try {
        body(r);
      } catch (...) {
        errors[r] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

int scaled(int iterations) {
  const char* scale = std::getenv("HYMPI_UNIT_SCALE");
  int s = scale ? std::atoi(scale) : 1;
  return s > 1 ? std::max(1, iterations / s) : iterations;
}

void jitter(unsigned& state) {
  state = state * 1103515245u + 12345u;
  unsigned r = (state >> 16) & 1023;
  if (r < 8) std::this_thread::sleep_for(std::chrono::microseconds(r * 3));
  else if (r < 64) std::this_thread::yield();
}

}  // namespace hympi::test
