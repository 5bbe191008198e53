#include "kube/wire/yaml_documents.h"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <string>

namespace propscaler::kube {
namespace {

using Allocator = rapidjson::Document::AllocatorType;

bool ReadsAsInteger(const std::string& text, int64_t* out) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (begin != end && *begin == '+') ++begin;
  auto [ptr, ec] = std::from_chars(begin, end, *out);
  return begin != end && ec == std::errc() && ptr == end;
}

bool ReadsAsNumber(const std::string& text, double* out) {
  if (text.empty() || text.find_first_of(".eE") == std::string::npos) {
    return false;
  }
  auto [ptr, ec] =
      std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

rapidjson::Value Scalar(const YAML::Node& node, Allocator& alloc) {
  const std::string& text = node.Scalar();
  if (node.Tag() != "!") {  // plain, not quoted
    if (text == "true" || text == "True" || text == "TRUE") {
      return rapidjson::Value(true);
    }
    if (text == "false" || text == "False" || text == "FALSE") {
      return rapidjson::Value(false);
    }
    if (text.empty() || text == "~" || text == "null" || text == "Null" ||
        text == "NULL") {
      return rapidjson::Value(rapidjson::kNullType);
    }
    int64_t integer = 0;
    if (ReadsAsInteger(text, &integer)) return rapidjson::Value(integer);
    double number = 0;
    if (ReadsAsNumber(text, &number)) return rapidjson::Value(number);
  }
  return rapidjson::Value(text, alloc);
}

// Deeper than any manifest nests: refused rather than recursed into.
constexpr int kMaxDepth = 64;

rapidjson::Value Convert(const YAML::Node& node, Allocator& alloc, int depth,
                         bool* too_deep) {
  if (depth > kMaxDepth) {
    *too_deep = true;
    return rapidjson::Value(rapidjson::kNullType);
  }
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      rapidjson::Value object(rapidjson::kObjectType);
      for (const auto& entry : node) {
        object.AddMember(rapidjson::Value(entry.first.Scalar(), alloc),
                         Convert(entry.second, alloc, depth + 1, too_deep),
                         alloc);
      }
      return object;
    }
    case YAML::NodeType::Sequence: {
      rapidjson::Value array(rapidjson::kArrayType);
      for (const auto& item : node) {
        array.PushBack(Convert(item, alloc, depth + 1, too_deep), alloc);
      }
      return array;
    }
    case YAML::NodeType::Scalar:
      return Scalar(node, alloc);
    default:
      return rapidjson::Value(rapidjson::kNullType);
  }
}

// The documents of a stream, split at its "---" and "..." lines, each with
// the line it starts on. (yaml-cpp's LoadAll loops forever on some
// malformed streams; Load of one document does not.)
struct Chunk {
  std::string text;
  int first_line = 0;
};

bool IsMarker(std::string_view line, std::string_view marker) {
  return line.substr(0, 3) == marker && (line.size() == 3 || line[3] == ' ' ||
                                         line[3] == '\t' || line[3] == '\r');
}

std::vector<Chunk> SplitDocuments(std::string_view text) {
  std::vector<Chunk> chunks(1);
  int line_number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view()
                                         : text.substr(end + 1);
    if (IsMarker(line, "---") || IsMarker(line, "...")) {
      chunks.push_back({"", line_number + 1});
      if (line[0] == '-') {
        chunks.back().text = std::string(line.substr(3)) + "\n";
        chunks.back().first_line = line_number;
      }
    } else {
      chunks.back().text += std::string(line) + "\n";
    }
    ++line_number;
  }
  return chunks;
}

}  // namespace

Result<rapidjson::Document> YamlDocumentsAsJson(std::string_view text) {
  std::vector<YAML::Node> documents;
  for (const Chunk& chunk : SplitDocuments(text)) {
    try {
      documents.push_back(YAML::Load(chunk.text));
    } catch (const YAML::Exception& e) {
      return Status::Invalid(
          "YAML line " + std::to_string(chunk.first_line + e.mark.line + 1) +
          ", column " + std::to_string(e.mark.column + 1) + ": " + e.msg);
    }
  }
  rapidjson::Document out;
  out.SetArray();
  for (size_t d = 0; d < documents.size(); ++d) {
    if (documents[d].IsNull()) continue;
    bool too_deep = false;
    rapidjson::Value value =
        Convert(documents[d], out.GetAllocator(), 0, &too_deep);
    if (too_deep) {
      return Status::Invalid("YAML document " + std::to_string(d + 1) +
                             " nests deeper than " + std::to_string(kMaxDepth) +
                             " levels");
    }
    out.PushBack(value, out.GetAllocator());
  }
  return out;
}

}  // namespace propscaler::kube
