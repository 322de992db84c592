// SPDX-License-Identifier: BSD-3-Clause
// The C API's error model (include/hympi.h): the code names, the calling thread's last
// message, and guard(), which turns whatever a C++ call throws into a code and a message so
// that no exception crosses the API, and refuses every call but the frees after MPI_Finalize.
#include <new>
#include <string>
#include <string_view>

#include "c/c_api.hpp"
#include "hympi/detail/finalize_guard.hpp"
#include "mpi/support/setup_agreement.hpp"

namespace hympi::c {
namespace {

thread_local std::string t_last_error;
thread_local const char* t_fixed_error = nullptr;  // instead of t_last_error when that could not be stored

/// Stores function + separator + what as this thread's last error and returns `code`.
/// Never throws: if the message cannot be stored, a fixed one replaces it.
int fail(int code, const char* function, const char* separator, const char* what) noexcept {
  try {
    t_last_error = std::string(function) + separator + what;
    t_fixed_error = nullptr;
  } catch (...) {
    t_fixed_error = "hympi: out of memory while storing an error message";
  }
  return code;
}

/// After MPI_Finalize hympi's objects are released (inside MPI_Finalize) and MPI may not be
/// called: only the hympi_*_free functions still run (they make no MPI call then). A flag
/// of the finalize guard, not MPI_Finalized: every call passes here, ghost updates too.
bool refused_after_finalize(const char* function) noexcept {
  return detail::FinalizeGuard::finalizing() && !std::string_view(function).ends_with("_free");
}

}  // namespace

int guard(const char* function, core::FunctionRef<void()> body) noexcept {
  if (refused_after_finalize(function))
    return fail(HYMPI_ERR_USAGE, function,
                ": called after MPI_Finalize, which released hympi's objects; only the hympi_*_free functions "
                "may be called now",
                "");
  try {
    body();
    return HYMPI_SUCCESS;
  } catch (const ArgumentError& e) {
    return fail(HYMPI_ERR_ARGUMENT, function, ": ", e.what());
  } catch (const mpi::SetupRefused& e) {
    // Every rank's reasons, each already naming its function.
    return fail(HYMPI_ERR_ARGUMENT, "", "", e.what());
  } catch (const Error& e) {
    // The C++ message as is: the same on every rank for a collective error.
    return fail(HYMPI_ERR_USAGE, "", "", e.what());
  } catch (const std::bad_alloc&) {
    return fail(HYMPI_ERR_NO_MEMORY, function, ": ", "out of memory");
  } catch (const std::exception& e) {
    return fail(HYMPI_ERR_INTERNAL, function, ": internal error (a bug in hympi: please report it): ", e.what());
  } catch (...) {
    return fail(HYMPI_ERR_INTERNAL, function, ": internal error (a bug in hympi: please report it): ",
                "an exception of unknown type");
  }
}

void check_collectively(const char* function, MPI_Comm comm, const char* setup, core::FunctionRef<void()> checks) {
  std::string reason;
  try {
    checks();
    return;
  } catch (const ArgumentError& e) {
    reason = std::string(function) + ": " + e.what();
  } catch (const Error& e) {
    reason = std::string(function) + ": " + e.what();
  }
  mpi::refuse_setup(comm, setup, reason);
}

}  // namespace hympi::c

extern "C" {

const char* hympi_error_string(int code) {
  switch (code) {
    case HYMPI_SUCCESS: return "HYMPI_SUCCESS: no error";
    case HYMPI_ERR_USAGE: return "HYMPI_ERR_USAGE: misuse or bad input (hympi_last_error_message() says what)";
    case HYMPI_ERR_ARGUMENT: return "HYMPI_ERR_ARGUMENT: a NULL handle or pointer, an unknown enum value or name";
    case HYMPI_ERR_NO_MEMORY: return "HYMPI_ERR_NO_MEMORY: an allocation failed";
    case HYMPI_ERR_INTERNAL: return "HYMPI_ERR_INTERNAL: an internal failure (a bug in hympi: please report it)";
  }
  return "unknown hympi error code";
}

const char* hympi_last_error_message(void) {
  return hympi::c::t_fixed_error ? hympi::c::t_fixed_error : hympi::c::t_last_error.c_str();
}

}  // extern "C"
