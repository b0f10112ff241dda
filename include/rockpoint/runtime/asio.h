// The runtime's one executor type and its coroutines, on Boost.Asio.
//
// Every runtime header and source that uses Asio includes this header first:
// Boost 1.74's asio/awaitable.hpp uses std::exchange without including
// <utility>, which g++ 12's standard headers no longer pull in, so <utility>
// must come before any Asio header. Keeping that here makes it one place.
#pragma once

// clang-format off
#include <utility>
// clang-format on

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

namespace rockpoint::runtime {

// The runtime's single executor type, and coroutines on it.
using Executor = boost::asio::any_io_executor;
template <typename T>
using Awaitable = boost::asio::awaitable<T, Executor>;

}  // namespace rockpoint::runtime
