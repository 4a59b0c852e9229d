#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "profiler/sqlite/SqliteStatement.hpp"

namespace trainscope::profiler {

// Binds a statement that runs many times only where a parameter's value differs from the
// one it holds from its last run. A bind goes through SQLite's API (a call, checks, the
// old value released), which costs more than comparing two numbers, and a bulk insert
// repeats most values (the run, a kind's unused columns, the lane), so most binds are
// skipped. The statement must be bound and run through this object only.
class SqliteChangedBindings {
  public:
    SqliteChangedBindings(SqliteStatement& statement, int parameters)
        : statement_(statement), held_(static_cast<std::size_t>(parameters)) {}

    SqliteChangedBindings& bind(int index, std::int64_t value) {
        if (changes(index, Type::Integer, static_cast<std::uint64_t>(value)))
            statement_.bind(index, value);
        return *this;
    }
    SqliteChangedBindings& bind(int index, int value) {
        return bind(index, static_cast<std::int64_t>(value));
    }
    // Compared bit for bit: -0.0 and 0.0 stay apart, a NaN repeats.
    SqliteChangedBindings& bind(int index, double value) {
        if (changes(index, Type::Real, std::bit_cast<std::uint64_t>(value)))
            statement_.bind(index, value);
        return *this;
    }
    void run() { statement_.run_keeping_bindings(); }

  private:
    enum class Type : std::uint8_t { None, Integer, Real };
    struct Held {
        std::uint64_t bits = 0;
        Type type = Type::None;
    };

    // Records the value as held; a bind that then throws ends the statement's use.
    bool changes(int index, Type type, std::uint64_t bits) {
        Held& held = held_[static_cast<std::size_t>(index - 1)];
        if (held.type == type && held.bits == bits)
            return false;
        held = {bits, type};
        return true;
    }

    SqliteStatement& statement_;
    std::vector<Held> held_;  // by parameter index - 1
};

}  // namespace trainscope::profiler
