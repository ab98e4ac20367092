// A `<<<>>>` launch of any kernel from the host's untyped values: each
// parameter's type, deduced from the kernel, says how its value is read.
#pragma once

#include "host.h"

#include <cstring>
#include <type_traits>
#include <utility>

namespace sl1x {

template <class T> T parameter(const Value &v) {
  if constexpr (std::is_pointer_v<T>) {
    return static_cast<T>(v.ptr);
  } else if constexpr (std::is_floating_point_v<T>) {
    static_assert(sizeof(T) <= sizeof(v.bits), "a float or a double");
    T t;
    std::memcpy(&t, &v.bits, sizeof t); // a float's bits are the low 32
    return t;
  } else {
    return static_cast<T>(v.bits);
  }
}

template <class... P, size_t... I>
void launch_with(void (*kernel)(P...), const Launch &l, const std::vector<Value> &values,
                 cudaStream_t stream, std::index_sequence<I...>) {
  kernel<<<l.grid, l.block, l.shared, stream>>>(parameter<P>(values[I])...);
}

template <class... P>
void launch_typed(void (*kernel)(P...), const Launch &l, const std::vector<Value> &values,
                  cudaStream_t stream) {
  if (values.size() != sizeof...(P))
    fail("the kernel takes " + std::to_string(sizeof...(P)) + " arguments, the spec gives " +
         std::to_string(values.size()));
  launch_with(kernel, l, values, stream, std::index_sequence_for<P...>{});
}

} // namespace sl1x
