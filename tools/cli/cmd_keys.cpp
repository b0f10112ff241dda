// keygen and rekey: making a key, and moving a store to another key.
//
//   rockpoint keygen > store.key
//   rockpoint rekey --store PATH [--key-file OLD] --new-key-file NEW
//   rockpoint rekey --store PATH --key-file OLD --decrypt
//
// rekey re-seals every record under the new key with the backend's Rekey,
// which is crash-safe (the store reads whole under the old key or whole
// under the new one, never a mix) and needs the store to itself.
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "formats/json_text.h"
#include "rockpoint/maintenance.h"
#include "tools/cli/commands.h"

namespace rockpoint::cli {
namespace {

Result<std::string> ReadKeyFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::InvalidArgument("cannot read key file " + path);
  std::string text((std::istreambuf_iterator<char>(file)),
                   std::istreambuf_iterator<char>());
  auto key = ParseEncryptionKey(text);
  WipeSecret(text);
  if (!key.ok()) {
    return Status::InvalidArgument("key file " + path + ": " +
                                   key.status().message());
  }
  return key;
}

class KeygenCommand final : public Command {
 public:
  const char* name() const override { return "keygen"; }
  const char* help() const override {
    return "Print a new random encryption key (64 hex digits) for "
           "--key-file";
  }
  Access access() const override { return Access::kNone; }
  void AddFlags(CLI::App&) override {}
  Result<int> Run(Context& context) override {
    RP_ASSIGN_OR_RETURN(std::string key, GenerateEncryptionKey());
    *context.out << FormatEncryptionKey(key) << '\n';
    WipeSecret(key);
    return kExitOk;
  }
};

class RekeyCommand final : public Command {
 public:
  const char* name() const override { return "rekey"; }
  const char* help() const override {
    return "Re-encrypt every record under a new key (--new-key-file), or "
           "decrypt the store (--decrypt); crash-safe";
  }
  Access access() const override { return Access::kNone; }
  void AddFlags(CLI::App& app) override {
    auto* key = app.add_option("--new-key-file", new_key_file_,
                               "File holding the new key (64 hex digits)");
    auto* decrypt = app.add_flag("--decrypt", decrypt_,
                                 "Store every record in plaintext again");
    key->excludes(decrypt);
  }
  Result<int> Run(Context& context) override {
    if (new_key_file_.empty() && !decrypt_) {
      return Status::InvalidArgument(
          "rekey needs --new-key-file FILE (or --decrypt)");
    }
    std::optional<EncryptionOptions> next;
    if (!decrypt_) {
      RP_ASSIGN_OR_RETURN(std::string key, ReadKeyFile(new_key_file_));
      next = EncryptionOptions{std::move(key)};
    }
    std::optional<Backend> forced;
    if (!context.globals.backend.empty()) {
      RP_ASSIGN_OR_RETURN(forced, ParseBackend(context.globals.backend));
    }
    const std::string& path = context.globals.store;
    RP_ASSIGN_OR_RETURN(const StoreLocation location,
                        Store::Locate(path, forced));
    StoreOptions options;
    options.encryption = context.encryption;
    RP_RETURN_IF_ERROR(Rekey(location, options, next));
    if (context.table()) {
      *context.out << (next ? "re-encrypted " : "decrypted ") << path << '\n';
    } else {
      formats::Json done = {{"store", path}, {"encrypted", next.has_value()}};
      *context.out << done.dump() << '\n';
    }
    return kExitOk;
  }

 private:
  std::string new_key_file_;
  bool decrypt_ = false;
};

}  // namespace

Result<std::optional<EncryptionOptions>> StoreKey(
    const GlobalOptions& globals) {
  if (!globals.key_file.empty()) {
    RP_ASSIGN_OR_RETURN(std::string key, ReadKeyFile(globals.key_file));
    return std::optional<EncryptionOptions>(EncryptionOptions{std::move(key)});
  }
  const char* environment = std::getenv(kEncryptionKeyEnvironment);
  if (environment == nullptr || *environment == '\0') {
    return std::optional<EncryptionOptions>();
  }
  // The backend reads and checks the variable itself.
  return std::optional<EncryptionOptions>(EncryptionOptions{});
}

std::unique_ptr<Command> MakeKeygenCommand() {
  return std::make_unique<KeygenCommand>();
}
std::unique_ptr<Command> MakeRekeyCommand() {
  return std::make_unique<RekeyCommand>();
}

}  // namespace rockpoint::cli
