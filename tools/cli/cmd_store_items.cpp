// The item store's item subcommands:
//
//   rockpoint store get NS KEY
//   rockpoint store put NS KEY JSON [--ttl MINUTES]
//   rockpoint store delete NS KEY
//   rockpoint store search [NS_PREFIX] [--filter FIELD=JSON]... [--limit N]
//                          [--offset N]
//   rockpoint store namespaces [--prefix NS] [--suffix NS] [--max-depth N]
//                              [--limit N] [--offset N]
//
// JSON arguments are plain JSON (objects become maps): a filter's operators
// are written as LangGraph's, e.g. --filter 'age={"$gt": 30}'. Values print
// in the lossless JSON form of formats/value_json.h. A search here has no
// query: the CLI computes no embeddings.
#include "formats/value_json.h"
#include "tools/cli/command_util.h"
#include "tools/cli/store_subcommand.h"

namespace rockpoint::cli {
namespace {

// Plain JSON -> Value: objects are maps, integers int64, other numbers
// doubles. REQUIRES: the nesting was checked (CheckJsonNesting).
Value PlainJsonToValue(const formats::Json& json) {
  if (json.is_object()) {
    Value::Map map;
    for (const auto& [key, member] : json.items()) {
      map.insert_or_assign(key, PlainJsonToValue(member));
    }
    return Value(std::move(map));
  }
  if (json.is_array()) {
    Value::Array array;
    for (const formats::Json& element : json) {
      array.push_back(PlainJsonToValue(element));
    }
    return Value(std::move(array));
  }
  if (json.is_boolean()) return Value(json.get<bool>());
  if (json.is_number_integer()) return Value(json.get<int64_t>());
  if (json.is_number()) return Value(json.get<double>());
  if (json.is_string()) return Value(json.get<std::string>());
  return Value();
}

Result<Value> ParsePlainJson(const std::string& text, const std::string& what) {
  if (!formats::Json::accept(text)) {
    return Status::InvalidArgument(what + " is not valid JSON");
  }
  if (Status nesting = formats::CheckJsonNesting(text); !nesting.ok()) {
    return Status::InvalidArgument(what + ": " + nesting.message());
  }
  return PlainJsonToValue(formats::Json::parse(text));
}

formats::Json ItemToJson(const StoreItem& item) {
  formats::Json row = formats::Json::object();
  row["namespace"] = NamespaceToJson(item.ns);
  row["key"] = formats::TextToJson(item.key);
  row["value"] = formats::ValueToJson(item.value);
  row["created_at"] = FormatMicros(item.created_at_us);
  row["updated_at"] = FormatMicros(item.updated_at_us);
  row["expires_at"] = item.expires_at_us
                          ? formats::Json(FormatMicros(*item.expires_at_us))
                          : formats::Json();
  return row;
}

class GetSubcommand final : public StoreSubcommand {
 public:
  const char* name() const override { return "get"; }
  const char* help() const override { return "Show one item"; }
  StoreAccess access() const override { return StoreAccess::kRead; }
  void AddFlags(CLI::App& app) override {
    app.add_option("namespace", ns_, "Namespace, labels joined by '.'")
        ->required();
    app.add_option("key", key_, "Item key")->required();
  }
  Result<int> Run(rockpoint::Store* store, Context& context) override {
    GetOp get;
    RP_ASSIGN_OR_RETURN(get.ns, ParseNamespaceArg(ns_, context));
    RP_RETURN_IF_ERROR(context.DecodeIds({&key_}));
    get.key = key_;
    get.refresh_ttl = false;  // looking is not using.
    RP_ASSIGN_OR_RETURN(std::optional<StoreItem> item, store->Get(get));
    if (!item) {
      return Status::NotFound("no item " + key_ + " in namespace " + ns_);
    }
    context.Print(Output::Document(ItemToJson(*item)));
    return kExitOk;
  }

 private:
  std::string ns_, key_;
};

class PutSubcommand final : public StoreSubcommand {
 public:
  const char* name() const override { return "put"; }
  const char* help() const override {
    return "Store a JSON object as an item (replacing the one at its key)";
  }
  StoreAccess access() const override { return StoreAccess::kCreate; }
  void AddFlags(CLI::App& app) override {
    app.add_option("namespace", ns_, "Namespace, labels joined by '.'")
        ->required();
    app.add_option("key", key_, "Item key")->required();
    app.add_option("value", value_, "The item's value: a JSON object")
        ->required();
    app.add_option("--ttl", ttl_, "Expire the item after MINUTES");
  }
  Result<int> Run(rockpoint::Store* store, Context& context) override {
    PutOp put;
    RP_ASSIGN_OR_RETURN(put.ns, ParseNamespaceArg(ns_, context));
    RP_RETURN_IF_ERROR(context.DecodeIds({&key_}));
    put.key = key_;
    RP_ASSIGN_OR_RETURN(put.value, ParsePlainJson(value_, "value"));
    if (ttl_) put.ttl = ItemTtl::Minutes(*ttl_);
    RP_RETURN_IF_ERROR(store->Put(put));
    return kExitOk;
  }

 private:
  std::string ns_, key_, value_;
  std::optional<double> ttl_;
};

class DeleteSubcommand final : public StoreSubcommand {
 public:
  const char* name() const override { return "delete"; }
  const char* help() const override {
    return "Delete one item (a missing item is not an error)";
  }
  StoreAccess access() const override { return StoreAccess::kWrite; }
  void AddFlags(CLI::App& app) override {
    app.add_option("namespace", ns_, "Namespace, labels joined by '.'")
        ->required();
    app.add_option("key", key_, "Item key")->required();
  }
  Result<int> Run(rockpoint::Store* store, Context& context) override {
    RP_ASSIGN_OR_RETURN(Namespace ns, ParseNamespaceArg(ns_, context));
    RP_RETURN_IF_ERROR(context.DecodeIds({&key_}));
    RP_RETURN_IF_ERROR(store->Delete(ns, key_));
    return kExitOk;
  }

 private:
  std::string ns_, key_;
};

class SearchSubcommand final : public StoreSubcommand {
 public:
  const char* name() const override { return "search"; }
  const char* help() const override {
    return "Items under a namespace prefix, newest updated first, with "
           "filters";
  }
  StoreAccess access() const override { return StoreAccess::kRead; }
  void AddFlags(CLI::App& app) override {
    app.add_option("prefix", prefix_, "Namespace prefix (default: all)");
    app.add_option("--filter", filters_,
                   "FIELD=JSON: the field equals JSON, or JSON is an "
                   "operator object such as {\"$gt\": 3} (repeatable)");
    app.add_option("--limit", limit_, "Show at most N items (default 10)")
        ->check(CountValidator());
    app.add_option("--offset", offset_, "Skip the first N items");
  }
  Result<int> Run(rockpoint::Store* store, Context& context) override {
    SearchOp search;
    RP_ASSIGN_OR_RETURN(search.ns_prefix, ParseNamespaceArg(prefix_, context));
    for (const std::string& filter : filters_) {
      const size_t equals = filter.find('=');
      if (equals == std::string::npos || equals == 0) {
        return Status::InvalidArgument("--filter must be FIELD=JSON, got \"" +
                                       filter + "\"");
      }
      const std::string field = filter.substr(0, equals);
      RP_ASSIGN_OR_RETURN(
          Value condition,
          ParsePlainJson(filter.substr(equals + 1), "--filter " + field));
      search.filter.insert_or_assign(field, std::move(condition));
    }
    search.limit = limit_;
    search.offset = offset_;
    search.refresh_ttl = false;
    RP_ASSIGN_OR_RETURN(std::vector<StoreItem> items, store->Search(search));
    Output output = Output::Rows({{"namespace", "NAMESPACE"},
                                  {"key", "KEY"},
                                  {"updated_at", "UPDATED"},
                                  {"value", "VALUE"}});
    for (const StoreItem& item : items) output.rows.push_back(ItemToJson(item));
    context.Print(output);
    return kExitOk;
  }

 private:
  std::string prefix_;
  std::vector<std::string> filters_;
  size_t limit_ = 10;
  size_t offset_ = 0;
};

class NamespacesSubcommand final : public StoreSubcommand {
 public:
  const char* name() const override { return "namespaces"; }
  const char* help() const override {
    return "List namespaces ('*' in --prefix/--suffix matches any label)";
  }
  StoreAccess access() const override { return StoreAccess::kRead; }
  void AddFlags(CLI::App& app) override {
    app.add_option("--prefix", prefix_, "Namespaces starting with NS");
    app.add_option("--suffix", suffix_, "Namespaces ending with NS");
    app.add_option("--max-depth", max_depth_,
                   "Cut namespaces to their first N labels")
        ->check(CountValidator());
    app.add_option("--limit", limit_, "Show at most N (default 100)")
        ->check(CountValidator());
    app.add_option("--offset", offset_, "Skip the first N");
  }
  Result<int> Run(rockpoint::Store* store, Context& context) override {
    ListNamespacesOp list;
    if (!prefix_.empty()) {
      RP_ASSIGN_OR_RETURN(Namespace path, ParseNamespaceArg(prefix_, context));
      list.conditions.push_back({NamespaceMatch::kPrefix, std::move(path)});
    }
    if (!suffix_.empty()) {
      RP_ASSIGN_OR_RETURN(Namespace path, ParseNamespaceArg(suffix_, context));
      list.conditions.push_back({NamespaceMatch::kSuffix, std::move(path)});
    }
    list.max_depth = max_depth_;
    list.limit = limit_;
    list.offset = offset_;
    RP_ASSIGN_OR_RETURN(std::vector<Namespace> namespaces,
                        store->ListNamespaces(list));
    Output output = Output::Rows({{"namespace", "NAMESPACE"}});
    for (const Namespace& ns : namespaces) {
      formats::Json row = formats::Json::object();
      row["namespace"] = NamespaceToJson(ns);
      output.rows.push_back(std::move(row));
    }
    context.Print(output);
    return kExitOk;
  }

 private:
  std::string prefix_, suffix_;
  std::optional<size_t> max_depth_;
  size_t limit_ = 100;
  size_t offset_ = 0;
};

}  // namespace

std::vector<std::unique_ptr<StoreSubcommand>> MakeStoreItemSubcommands() {
  std::vector<std::unique_ptr<StoreSubcommand>> out;
  out.push_back(std::make_unique<NamespacesSubcommand>());
  out.push_back(std::make_unique<GetSubcommand>());
  out.push_back(std::make_unique<SearchSubcommand>());
  out.push_back(std::make_unique<PutSubcommand>());
  out.push_back(std::make_unique<DeleteSubcommand>());
  return out;
}

}  // namespace rockpoint::cli
