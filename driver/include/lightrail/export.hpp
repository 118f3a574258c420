// LIGHTRAIL_EXPORT marks the driver's API. The library is built with
// -fvisibility=hidden, so everything else it contains (nlohmann::json,
// Boost.Asio, fmt and its own helpers) stays out of the shared library's
// dynamic symbol table and out of its ABI.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define LIGHTRAIL_EXPORT __attribute__((visibility("default")))
#else
#define LIGHTRAIL_EXPORT
#endif
