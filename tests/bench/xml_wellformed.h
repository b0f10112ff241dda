// A minimal XML well-formedness check for the bench's SVG output: one root
// element, properly nested and closed tags, quoted attributes with no raw
// '<' or '&' inside, only the predefined or numeric character references,
// and nothing but whitespace, comments, the XML declaration or processing
// instructions outside the root. Not a validating parser; no DTDs.
//
// Thread-safety: pure function.
#pragma once

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace rockpoint::bench_test {

struct XmlCheck {
  bool ok = false;
  std::string error;               // why not, with the byte offset.
  std::string root;                // the root element's name.
  size_t elements = 0;             // elements seen.
  std::vector<std::string> names;  // element names in document order.
};

namespace xml_detail {

inline bool NameStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':';
}
inline bool NameChar(char c) {
  return NameStart(c) || std::isdigit(static_cast<unsigned char>(c)) ||
         c == '-' || c == '.';
}

// A character reference or entity at text[i] == '&'; returns its length or
// 0 if it is not a valid one.
inline size_t Reference(std::string_view text, size_t i) {
  const size_t end = text.find(';', i);
  if (end == std::string_view::npos || end - i > 10) return 0;
  const std::string_view body = text.substr(i + 1, end - i - 1);
  if (body == "amp" || body == "lt" || body == "gt" || body == "quot" ||
      body == "apos") {
    return end - i + 1;
  }
  if (body.size() >= 2 && body[0] == '#') {
    const bool hex = body[1] == 'x';
    const std::string_view digits = body.substr(hex ? 2 : 1);
    if (digits.empty()) return 0;
    for (const char c : digits) {
      if (hex ? !std::isxdigit(static_cast<unsigned char>(c))
              : !std::isdigit(static_cast<unsigned char>(c))) {
        return 0;
      }
    }
    return end - i + 1;
  }
  return 0;
}

}  // namespace xml_detail

inline XmlCheck CheckXml(std::string_view text) {
  using namespace xml_detail;
  XmlCheck result;
  std::vector<std::string> open;
  bool root_closed = false;
  size_t i = 0;
  auto fail = [&](const std::string& why) {
    result.ok = false;
    result.error = why + " at byte " + std::to_string(i);
    return result;
  };
  while (i < text.size()) {
    if (text[i] != '<') {
      if (text[i] == '&') {
        const size_t length = Reference(text, i);
        if (length == 0) return fail("bad reference");
        if (open.empty()) return fail("reference outside the root");
        i += length;
        continue;
      }
      if (open.empty() && !std::isspace(static_cast<unsigned char>(text[i]))) {
        return fail("text outside the root");
      }
      ++i;
      continue;
    }
    if (text.substr(i, 4) == "<!--") {
      const size_t end = text.find("-->", i + 4);
      if (end == std::string_view::npos) return fail("unclosed comment");
      i = end + 3;
      continue;
    }
    if (text.substr(i, 2) == "<?") {
      const size_t end = text.find("?>", i + 2);
      if (end == std::string_view::npos) return fail("unclosed <?");
      i = end + 2;
      continue;
    }
    if (text.substr(i, 2) == "<!") return fail("DTD or CDATA not supported");
    const bool closing = text.substr(i, 2) == "</";
    size_t p = i + (closing ? 2 : 1);
    if (p >= text.size() || !NameStart(text[p])) return fail("bad tag name");
    const size_t name_start = p;
    while (p < text.size() && NameChar(text[p])) ++p;
    const std::string name(text.substr(name_start, p - name_start));
    if (closing) {
      while (p < text.size() &&
             std::isspace(static_cast<unsigned char>(text[p])))
        ++p;
      if (p >= text.size() || text[p] != '>') return fail("bad closing tag");
      if (open.empty() || open.back() != name) {
        return fail("</" + name + "> does not close the open element");
      }
      open.pop_back();
      if (open.empty()) root_closed = true;
      i = p + 1;
      continue;
    }
    if (root_closed || (open.empty() && result.elements > 0)) {
      return fail("second root element");
    }
    // Attributes.
    std::vector<std::string> attributes;
    bool self_closing = false;
    while (true) {
      const size_t before = p;
      while (p < text.size() &&
             std::isspace(static_cast<unsigned char>(text[p])))
        ++p;
      if (p >= text.size()) return fail("unclosed tag");
      if (text[p] == '>') break;
      if (text.substr(p, 2) == "/>") {
        self_closing = true;
        ++p;
        break;
      }
      if (p == before) return fail("attributes must be separated by space");
      if (!NameStart(text[p])) return fail("bad attribute name");
      const size_t attr_start = p;
      while (p < text.size() && NameChar(text[p])) ++p;
      const std::string attr(text.substr(attr_start, p - attr_start));
      for (const std::string& seen : attributes) {
        if (seen == attr) return fail("duplicate attribute " + attr);
      }
      attributes.push_back(attr);
      if (p >= text.size() || text[p] != '=')
        return fail("attribute without =");
      ++p;
      if (p >= text.size() || (text[p] != '"' && text[p] != '\'')) {
        return fail("unquoted attribute " + attr);
      }
      const char quote = text[p++];
      while (p < text.size() && text[p] != quote) {
        if (text[p] == '<') return fail("'<' in attribute " + attr);
        if (text[p] == '&') {
          const size_t length = Reference(text, p);
          if (length == 0) return fail("bad reference in attribute " + attr);
          p += length;
          continue;
        }
        ++p;
      }
      if (p >= text.size()) return fail("unclosed attribute " + attr);
      ++p;
    }
    ++result.elements;
    result.names.push_back(name);
    if (result.root.empty()) result.root = name;
    if (self_closing) {
      if (open.empty()) root_closed = true;
    } else {
      open.push_back(name);
    }
    i = p + 1;
  }
  if (!open.empty()) return fail("<" + open.back() + "> never closed");
  if (result.elements == 0) return fail("no root element");
  result.ok = true;
  return result;
}

}  // namespace rockpoint::bench_test
