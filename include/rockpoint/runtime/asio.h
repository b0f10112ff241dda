// The runtime's one executor type and its coroutines, on Boost.Asio.
//
// Every runtime header and source that uses Asio includes this header first:
// Boost 1.74's asio/awaitable.hpp uses std::exchange without including
// <utility>, which g++ 12's standard headers no longer pull in, so <utility>
// must come before any Asio header. Keeping that here makes it one place.
// Likewise, Boost 1.74 enables co_await on clang only with
// <experimental/coroutine>; clang's C++20 coroutines with <coroutine> (which
// Asio already selects there) work as they do on g++.
#pragma once

// clang-format off
#include <utility>
// clang-format on

#if defined(__clang__) && defined(__cpp_impl_coroutine) && \
    !defined(BOOST_ASIO_HAS_CO_AWAIT) && __has_include(<coroutine>)
#define BOOST_ASIO_HAS_CO_AWAIT 1
#endif

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

namespace rockpoint::runtime {

// The runtime's single executor type, and coroutines on it.
using Executor = boost::asio::any_io_executor;
template <typename T>
using Awaitable = boost::asio::awaitable<T, Executor>;

}  // namespace rockpoint::runtime
