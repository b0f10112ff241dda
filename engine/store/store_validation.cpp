// The store's input checks (store_validation.h).
#include "engine/store/store_validation.h"

#include <cmath>
#include <string>

#include "engine/store/store_filter.h"

namespace rockpoint::store_internal {
namespace {

Status TooLong(std::string_view what, size_t size, const StoreLimits& limits) {
  return Status::InvalidArgument(
      std::string(what) + " is " + std::to_string(size) +
      " bytes, over the limit of " + std::to_string(limits.max_id_bytes));
}

Status ValidateLabels(const Namespace& ns, const StoreLimits& limits) {
  if (ns.size() > limits.max_namespace_depth) {
    return Status::InvalidArgument("namespace has " +
                                   std::to_string(ns.size()) +
                                   " labels, over the limit of " +
                                   std::to_string(limits.max_namespace_depth));
  }
  for (const std::string& label : ns) {
    if (label.size() > limits.max_id_bytes) {
      return TooLong("namespace label", label.size(), limits);
    }
  }
  return Status::OK();
}

Status ValidateTtl(const ItemTtl& ttl) {
  if (ttl.kind != ItemTtl::Kind::kMinutes) return Status::OK();
  if (!std::isfinite(ttl.minutes) || ttl.minutes <= 0) {
    return Status::InvalidArgument(
        "ttl must be a positive number of minutes, got " +
        std::to_string(ttl.minutes));
  }
  return Status::OK();
}

Status ValidatePut(const PutOp& put, const StoreLimits& limits,
                   std::optional<size_t> dims) {
  RP_RETURN_IF_ERROR(ValidateNamespace(put.ns, limits));
  RP_RETURN_IF_ERROR(ValidateKey(put.key, limits));
  if (!put.value) {
    return Status::OK();
  }
  if (!put.value->is_map()) {
    return Status::InvalidArgument("an item value must be a map");
  }
  RP_RETURN_IF_ERROR(
      serde::CheckNesting(*put.value, "item value", serde::kMaxDepth - 1));
  RP_RETURN_IF_ERROR(ValidateTtl(put.ttl));
  if (!put.vectors.empty() && !dims) {
    return Status::InvalidArgument(
        "put carries vectors but the store has no vector index configured");
  }
  for (const FieldVector& field : put.vectors) {
    if (field.field.size() > limits.max_id_bytes) {
      return TooLong("vector field name", field.field.size(), limits);
    }
    RP_RETURN_IF_ERROR(ValidateVector(
        field.vector, dims, "vector of field \"" + field.field + "\""));
  }
  return Status::OK();
}

Status ValidateSearch(const SearchOp& search, const StoreLimits& limits,
                      std::optional<size_t> dims) {
  RP_RETURN_IF_ERROR(ValidateLabels(search.ns_prefix, limits));
  serde::Value filter(search.filter);
  RP_RETURN_IF_ERROR(serde::CheckNesting(filter, "filter"));
  RP_RETURN_IF_ERROR(ValidateFilter(search.filter));
  if (search.query) {
    if (!dims) {
      return Status::InvalidArgument(
          "search has a query vector but the store has no vector index "
          "configured");
    }
    RP_RETURN_IF_ERROR(ValidateVector(*search.query, dims, "query vector"));
  }
  return Status::OK();
}

Status ValidateList(const ListNamespacesOp& list, const StoreLimits& limits) {
  for (const NamespaceCondition& condition : list.conditions) {
    RP_RETURN_IF_ERROR(ValidateLabels(condition.path, limits));
  }
  if (list.max_depth && *list.max_depth == 0) {
    return Status::InvalidArgument("max_depth must be >= 1");
  }
  return Status::OK();
}

}  // namespace

Status ValidateNamespace(const Namespace& ns, const StoreLimits& limits) {
  if (ns.empty()) return Status::InvalidArgument("namespace cannot be empty");
  RP_RETURN_IF_ERROR(ValidateLabels(ns, limits));
  for (const std::string& label : ns) {
    if (label.empty()) {
      return Status::InvalidArgument(
          "namespace labels cannot be empty strings");
    }
    if (label.find('.') != std::string::npos) {
      return Status::InvalidArgument(
          "namespace labels cannot contain periods ('.'): \"" + label + "\"");
    }
  }
  if (ns.front() == "langgraph") {
    return Status::InvalidArgument(
        "root label for namespace cannot be \"langgraph\"");
  }
  return Status::OK();
}

Status ValidateKey(std::string_view key, const StoreLimits& limits) {
  if (key.size() > limits.max_id_bytes)
    return TooLong("key", key.size(), limits);
  return Status::OK();
}

Status ValidateVector(const std::vector<float>& vector,
                      std::optional<size_t> dims, std::string_view what) {
  if (dims && vector.size() != *dims) {
    return Status::InvalidArgument(
        std::string(what) + " has " + std::to_string(vector.size()) +
        " dimensions, the store's index has " + std::to_string(*dims));
  }
  for (float x : vector) {
    if (!std::isfinite(x)) {
      return Status::InvalidArgument(std::string(what) +
                                     " holds a NaN or infinite value");
    }
  }
  return Status::OK();
}

Status ValidateOpenOptions(const StoreOpenOptions& options) {
  if (options.index) {
    const StoreIndexOptions& index = *options.index;
    if (index.dims == 0) {
      return Status::InvalidArgument("index dims must be >= 1");
    }
    if (index.hnsw_links < 2 || index.hnsw_links > 10000) {
      return Status::InvalidArgument(
          "index hnsw_links (M) must be from 2 to 10000, got " +
          std::to_string(index.hnsw_links));
    }
    if (index.hnsw_build_candidates == 0 || index.hnsw_search_candidates == 0) {
      return Status::InvalidArgument(
          "index hnsw_build_candidates and hnsw_search_candidates must be "
          ">= 1");
    }
  }
  const StoreTtlOptions& ttl = options.ttl;
  if (ttl.default_ttl_minutes) {
    RP_RETURN_IF_ERROR(ValidateTtl(ItemTtl::Minutes(*ttl.default_ttl_minutes)));
  }
  if (ttl.sweep_interval_minutes &&
      (!std::isfinite(*ttl.sweep_interval_minutes) ||
       *ttl.sweep_interval_minutes <= 0)) {
    return Status::InvalidArgument(
        "sweep_interval_minutes must be a positive number");
  }
  if (ttl.sweep_batch_size == 0) {
    return Status::InvalidArgument("sweep_batch_size must be >= 1");
  }
  return Status::OK();
}

Status ValidateOp(const StoreOp& op, const StoreLimits& limits,
                  std::optional<size_t> dims, bool read_only,
                  const std::string& store_name) {
  if (const auto* get = std::get_if<GetOp>(&op)) {
    RP_RETURN_IF_ERROR(ValidateLabels(get->ns, limits));
    return ValidateKey(get->key, limits);
  }
  if (const auto* put = std::get_if<PutOp>(&op)) {
    if (read_only) {
      return Status::InvalidArgument("store opened read-only: " + store_name);
    }
    return ValidatePut(*put, limits, dims);
  }
  if (const auto* search = std::get_if<SearchOp>(&op)) {
    return ValidateSearch(*search, limits, dims);
  }
  return ValidateList(std::get<ListNamespacesOp>(op), limits);
}

}  // namespace rockpoint::store_internal
