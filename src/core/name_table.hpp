// SPDX-License-Identifier: BSD-3-Clause
// The names of an enumeration, one table per enumeration: printing a value (name_of),
// parsing one (environment variables, command lines) and the "valid: ..." lists of error
// messages all read the same table, made from the enumeration's list in hympi/names.h
// (name_table), so a new value is added in one place.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace hympi::core {

template <class E>
struct Named {
  E value;
  const char* name;
};

/// A row of a list of hympi/names.h, for name_table: HYMPI_OPS(HYMPI_ROW) -> {0, "sum"}, ...
struct Row {
  int value;
  const char* name;
};
#define HYMPI_ROW(name, constant, value) ::hympi::core::Row{value, #name},

/// The name table of enumeration E from its rows:
///   constexpr auto kOps = core::name_table<Op>({HYMPI_OPS(HYMPI_ROW)});
template <class E, std::size_t N>
constexpr std::array<Named<E>, N> name_table(const Row (&rows)[N]) {
  std::array<Named<E>, N> table{};
  for (std::size_t i = 0; i < N; ++i) table[i] = {E(rows[i].value), rows[i].name};
  return table;
}

/// The name of `value` in `table` (the first entry for it), or `unknown`.
template <class Table, class E>
constexpr const char* name_in(const Table& table, E value, const char* unknown = "?") {
  for (const auto& entry : table)
    if (entry.value == value) return entry.name;
  return unknown;
}

/// The value named `name` in `table`, if any.
template <class Table>
constexpr auto value_in(const Table& table, std::string_view name)
    -> std::optional<std::remove_cvref_t<decltype(table[0].value)>> {
  for (const auto& entry : table)
    if (name == entry.name) return entry.value;
  return std::nullopt;
}

/// Every name of `table` in order: "a, b, c", or with last_separator " or ": "a, b or c".
template <class Table>
std::string names_in(const Table& table, const char* last_separator = ", ") {
  std::string text;
  const std::size_t count = std::size(table);
  for (std::size_t i = 0; i < count; ++i)
    text += (i == 0 ? "" : i + 1 == count ? last_separator : ", ") + std::string(table[i].name);
  return text;
}

/// An agree_on_setup printer of an enumeration's value: its name (name_of(E)).
template <class E>
std::string show_name(int64_t value) {
  return name_of(E(value));
}

}  // namespace hympi::core
