#include "datatypes.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>

namespace ringsim::s4u_engine {
namespace {

// The last two only carry large messages in the rank program (counted_mpi.cpp), never reduced.
constexpr std::array<std::size_t, 8> kSizes{sizeof(char),      sizeof(int),           sizeof(float), sizeof(double),
                                            sizeof(long long), sizeof(std::uint64_t), 16,            32};

template <typename T>
void reduce_typed(void* destination, const void* source, int count, MPI_Op op) {
  T* out = static_cast<T*>(destination);
  const T* in = static_cast<const T*>(source);
  for (int i = 0; i < count; ++i) out[i] = op == MPI_MAX ? std::max(out[i], in[i]) : out[i] + in[i];
}

}  // namespace

std::size_t datatype_size(MPI_Datatype type) {
  if (type < 0 || static_cast<std::size_t>(type) >= kSizes.size()) throw std::invalid_argument("unknown MPI datatype");
  return kSizes[static_cast<std::size_t>(type)];
}

void reduce_into(void* destination, const void* source, int count, MPI_Datatype type, MPI_Op op) {
  if (op != MPI_SUM && op != MPI_MAX) throw std::invalid_argument("unknown MPI operation");
  switch (type) {
    case MPI_CHAR: return reduce_typed<char>(destination, source, count, op);
    case MPI_INT: return reduce_typed<int>(destination, source, count, op);
    case MPI_FLOAT: return reduce_typed<float>(destination, source, count, op);
    case MPI_DOUBLE: return reduce_typed<double>(destination, source, count, op);
    case MPI_LONG_LONG: return reduce_typed<long long>(destination, source, count, op);
    case MPI_UINT64_T: return reduce_typed<std::uint64_t>(destination, source, count, op);
    default: throw std::invalid_argument("unknown MPI datatype");
  }
}

}  // namespace ringsim::s4u_engine

int MPI_Type_size(MPI_Datatype type, int* size) {
  *size = static_cast<int>(ringsim::s4u_engine::datatype_size(type));
  return MPI_SUCCESS;
}
