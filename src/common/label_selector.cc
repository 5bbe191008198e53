#include "common/label_selector.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace propscaler {
namespace {

// Tokens of the selector grammar, as the Kubernetes lexer splits them.
enum class Token {
  kEnd,
  kIdentifier,
  kNot,  // "!"
  kEquals,
  kDoubleEquals,
  kNotEquals,
  kIn,
  kNotIn,
  kOpenParen,
  kCloseParen,
  kComma,
  kGreaterThan,
  kLessThan,
};

struct Lexeme {
  Token token = Token::kEnd;
  std::string_view text;
};

bool IsWhitespace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool IsSpecial(char c) {
  return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' ||
         c == '<';
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Lexeme Next() {
    while (pos_ < text_.size() && IsWhitespace(text_[pos_])) ++pos_;
    if (pos_ >= text_.size()) return {Token::kEnd, ""};
    size_t start = pos_;
    char c = text_[pos_];
    if (IsSpecial(c)) {
      ++pos_;
      bool then_equals = pos_ < text_.size() && text_[pos_] == '=';
      switch (c) {
        case '=':
          if (then_equals) return Take(Token::kDoubleEquals, start);
          return {Token::kEquals, text_.substr(start, 1)};
        case '!':
          if (then_equals) return Take(Token::kNotEquals, start);
          return {Token::kNot, text_.substr(start, 1)};
        case '(':
          return {Token::kOpenParen, text_.substr(start, 1)};
        case ')':
          return {Token::kCloseParen, text_.substr(start, 1)};
        case ',':
          return {Token::kComma, text_.substr(start, 1)};
        case '>':
          return {Token::kGreaterThan, text_.substr(start, 1)};
        default:
          return {Token::kLessThan, text_.substr(start, 1)};
      }
    }
    while (pos_ < text_.size() && !IsWhitespace(text_[pos_]) &&
           !IsSpecial(text_[pos_])) {
      ++pos_;
    }
    std::string_view word = text_.substr(start, pos_ - start);
    if (word == "in") return {Token::kIn, word};
    if (word == "notin") return {Token::kNotIn, word};
    return {Token::kIdentifier, word};
  }

 private:
  Lexeme Take(Token token, size_t start) {
    ++pos_;
    return {token, text_.substr(start, 2)};
  }

  std::string_view text_;
  size_t pos_ = 0;
};

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9');
}

// Kubernetes' qualified-name part: ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool IsNamePart(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return IsAlnum(c) || c == '-' || c == '_' || c == '.';
  });
}

// A DNS-1123 subdomain: lowercase labels joined by dots, at most 253 chars.
bool IsDnsSubdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    std::string_view label = s.substr(start, dot - start);
    if (label.empty()) return false;
    auto lower_alnum = [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    };
    if (!lower_alnum(label.front()) || !lower_alnum(label.back())) return false;
    for (char c : label) {
      if (!lower_alnum(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

std::string ValueProblem(std::string_view value) {
  if (value.empty()) return "";
  if (value.size() > 63) return "a label value is at most 63 characters";
  if (!IsNamePart(value)) {
    return "a label value must be alphanumerics, '-', '_' or '.', starting "
           "and ending with an alphanumeric";
  }
  return "";
}

std::string Quote(std::string_view s) { return "\"" + std::string(s) + "\""; }

// "end of string" for the end token, else the quoted text.
std::string Describe(const Lexeme& l) {
  if (l.token == Token::kEnd) return "end of string";
  return "'" + std::string(l.text) + "'";
}

// A recursive-descent parser following k8s.io/apimachinery/pkg/labels.
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text), lexer_(text) {
    Advance();
  }

  Result<LabelSelector> Parse() {
    std::vector<LabelRequirement> requirements;
    if (current_.token == Token::kEnd) return LabelSelector();
    while (true) {
      if (current_.token != Token::kIdentifier &&
          current_.token != Token::kNot && current_.token != Token::kIn &&
          current_.token != Token::kNotIn) {
        return Error("found " + Describe(current_) +
                     ", expected '!' or a label key");
      }
      Result<LabelRequirement> r = ParseRequirement();
      if (!r.ok()) return r.status();
      requirements.push_back(std::move(r).value());
      if (current_.token == Token::kEnd) break;
      if (current_.token != Token::kComma) {
        return Error("found " + Describe(current_) + " after requirement " +
                     Quote(RequirementText()) +
                     ", expected ',' or end of string");
      }
      Advance();
      if (current_.token == Token::kEnd || current_.token == Token::kComma) {
        return Error("empty requirement after ','");
      }
    }
    return LabelSelector(std::move(requirements));
  }

 private:
  void Advance() {
    current_ = lexer_.Next();
    if (requirement_start_ == std::string_view::npos) {
      requirement_start_ = Offset(current_);
    }
  }

  size_t Offset(const Lexeme& l) const {
    if (l.token == Token::kEnd) return text_.size();
    return static_cast<size_t>(l.text.data() - text_.data());
  }

  // The text of the requirement being parsed, up to the current token.
  std::string_view RequirementText() const {
    size_t end = Offset(current_);
    std::string_view s =
        text_.substr(requirement_start_, end - requirement_start_);
    while (!s.empty() && IsWhitespace(s.back())) s.remove_suffix(1);
    return s;
  }

  Status Error(const std::string& what) const {
    return Status::Invalid("label selector " + Quote(text_) + ": " + what);
  }

  Result<LabelRequirement> ParseRequirement() {
    requirement_start_ = Offset(current_);
    LabelRequirement r;
    bool negated = false;
    if (current_.token == Token::kNot) {
      negated = true;
      Advance();
    }
    // "in" and "notin" are ordinary keys where a key is expected.
    if (current_.token != Token::kIdentifier && current_.token != Token::kIn &&
        current_.token != Token::kNotIn) {
      return Error("found " + Describe(current_) + ", expected a label key" +
                   (negated ? " after '!'" : ""));
    }
    r.key = std::string(current_.text);
    if (std::string problem = LabelKeyProblem(r.key); !problem.empty()) {
      return Error("invalid label key " + Quote(r.key) + ": " + problem);
    }
    Advance();
    if (negated) {
      r.op = LabelRequirement::Op::kDoesNotExist;
      return r;
    }
    switch (current_.token) {
      case Token::kEnd:
      case Token::kComma:
        r.op = LabelRequirement::Op::kExists;
        return r;
      case Token::kEquals:
      case Token::kDoubleEquals:
        r.op = LabelRequirement::Op::kEquals;
        break;
      case Token::kNotEquals:
        r.op = LabelRequirement::Op::kNotEquals;
        break;
      case Token::kIn:
        r.op = LabelRequirement::Op::kIn;
        break;
      case Token::kNotIn:
        r.op = LabelRequirement::Op::kNotIn;
        break;
      case Token::kGreaterThan:
      case Token::kLessThan:
        return Error("operator " + Describe(current_) + " after key " +
                     Quote(r.key) + " is not supported");
      default:
        return Error("found " + Describe(current_) + " after key " +
                     Quote(r.key) +
                     ", expected one of =, ==, !=, in, notin, ',' or end of "
                     "string");
    }
    Advance();
    Status s = (r.op == LabelRequirement::Op::kIn ||
                r.op == LabelRequirement::Op::kNotIn)
                   ? ParseValueList(&r)
                   : ParseExactValue(&r);
    if (!s.ok()) return s;
    for (const std::string& v : r.values) {
      if (std::string problem = ValueProblem(v); !problem.empty()) {
        return Error("invalid value " + Quote(v) + " for key " + Quote(r.key) +
                     ": " + problem);
      }
    }
    return r;
  }

  // After = == !=: one value, possibly empty ("a=").
  Status ParseExactValue(LabelRequirement* r) {
    if (current_.token == Token::kEnd || current_.token == Token::kComma) {
      r->values = {""};
      return Status::Ok();
    }
    if (current_.token != Token::kIdentifier && current_.token != Token::kIn &&
        current_.token != Token::kNotIn) {
      return Error("found " + Describe(current_) + " in " +
                   Quote(RequirementText()) + ", expected a value");
    }
    r->values = {std::string(current_.text)};
    Advance();
    return Status::Ok();
  }

  // After in/notin: "(v1, v2, ...)". Empty entries are empty values, as in
  // Kubernetes: "()" and "(a,)" hold "".
  Status ParseValueList(LabelRequirement* r) {
    if (current_.token != Token::kOpenParen) {
      return Error("found " + Describe(current_) + " in " +
                   Quote(RequirementText()) + ", expected '('");
    }
    Advance();
    bool expect_value = true;
    while (current_.token != Token::kCloseParen) {
      if (current_.token == Token::kComma) {
        if (expect_value) r->values.push_back("");
        expect_value = true;
        Advance();
        continue;
      }
      bool is_word = current_.token == Token::kIdentifier ||
                     current_.token == Token::kIn ||
                     current_.token == Token::kNotIn;
      if (current_.token == Token::kEnd) {
        return Error("missing ')' after values in " + Quote(RequirementText()));
      }
      if (!is_word || !expect_value) {
        return Error("found " + Describe(current_) + " in " +
                     Quote(RequirementText()) + ", expected " +
                     (expect_value ? "a value, ',' or ')'" : "',' or ')'"));
      }
      r->values.push_back(std::string(current_.text));
      expect_value = false;
      Advance();
    }
    if (expect_value) r->values.push_back("");
    Advance();  // past ')'
    std::sort(r->values.begin(), r->values.end());
    r->values.erase(std::unique(r->values.begin(), r->values.end()),
                    r->values.end());
    return Status::Ok();
  }

  std::string_view text_;
  Lexer lexer_;
  Lexeme current_;
  size_t requirement_start_ = std::string_view::npos;
};

}  // namespace

bool LabelRequirement::Matches(const Labels& labels) const {
  auto it = labels.find(key);
  bool has = it != labels.end();
  auto listed = [&] {
    return std::find(values.begin(), values.end(), it->second) != values.end();
  };
  switch (op) {
    case Op::kEquals:
    case Op::kIn:
      return has && listed();
    case Op::kNotEquals:
    case Op::kNotIn:
      return !has || !listed();
    case Op::kExists:
      return has;
    case Op::kDoesNotExist:
      return !has;
  }
  return false;
}

std::string LabelKeyProblem(std::string_view key) {
  std::string_view name = key;
  size_t slash = key.find('/');
  if (slash != std::string_view::npos) {
    std::string_view prefix = key.substr(0, slash);
    name = key.substr(slash + 1);
    if (name.find('/') != std::string_view::npos) {
      return "a label key has at most one '/'";
    }
    if (!IsDnsSubdomain(prefix)) {
      return "the prefix before '/' must be a lowercase DNS subdomain of at "
             "most 253 characters";
    }
  }
  if (name.size() > 63) return "the name part is longer than 63 characters";
  if (!IsNamePart(name)) {
    return "the name part must be alphanumerics, '-', '_' or '.', starting "
           "and ending with an alphanumeric";
  }
  return "";
}

Result<LabelSelector> LabelSelector::Parse(std::string_view text) {
  return Parser(text).Parse();
}

std::string LabelRequirement::ToString() const {
  auto values_list = [this] {
    std::string joined;
    for (const std::string& value : values) {
      joined += (joined.empty() ? "" : ",") + value;
    }
    return " (" + joined + ")";
  };
  const std::string first = values.empty() ? "" : values.front();
  switch (op) {
    case Op::kEquals:
      return key + "=" + first;
    case Op::kNotEquals:
      return key + "!=" + first;
    case Op::kIn:
      return key + " in" + values_list();
    case Op::kNotIn:
      return key + " notin" + values_list();
    case Op::kExists:
      return key;
    case Op::kDoesNotExist:
      return "!" + key;
  }
  return key;
}

std::string LabelSelector::ToString() const {
  std::string text;
  for (const LabelRequirement& requirement : requirements_) {
    text += (text.empty() ? "" : ",") + requirement.ToString();
  }
  return text;
}

bool LabelSelector::Matches(const Labels& labels) const {
  return std::all_of(
      requirements_.begin(), requirements_.end(),
      [&](const LabelRequirement& r) { return r.Matches(labels); });
}

}  // namespace propscaler
