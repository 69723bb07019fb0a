// JSON for the worker's line protocol: strings and numbers out, flat objects of strings, numbers and booleans in.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cctype>
#include <map>
#include <string>

namespace folio {

// ---------- JSON output ----------

inline std::string json_str(const std::string & s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    snprintf(buf, sizeof(buf), "\\u%04x", c);
                    out += buf;
                } else {
                    out += (char) c; // invalid UTF-8 is replaced by the reader's decoder
                }
        }
    }
    return out + "\"";
}

inline std::string json_num(double v, int decimals = 3) {
    if (!std::isfinite(v)) return "0";
    char buf[32];
    snprintf(buf, sizeof(buf), "%.*f", decimals, v);
    return buf;
}

// ---------- JSON input: flat objects of strings, numbers and booleans are all we accept ----------

inline bool parse_flat_json(const std::string & s, std::map<std::string, std::string> & out) {
    size_t i = 0;
    auto ws = [&]() { while (i < s.size() && isspace((unsigned char) s[i])) i++; };
    auto str = [&](std::string & v) -> bool {
        if (i >= s.size() || s[i] != '"') return false;
        i++;
        while (i < s.size() && s[i] != '"') {
            char c = s[i++];
            if (c != '\\') { v += c; continue; }
            if (i >= s.size()) return false;
            char e = s[i++];
            switch (e) {
                case 'n': v += '\n'; break;
                case 't': v += '\t'; break;
                case 'r': v += '\r'; break;
                case 'b': v += '\b'; break;
                case 'f': v += '\f'; break;
                case 'u': {
                    if (i + 4 > s.size()) return false;
                    unsigned cp = (unsigned) strtoul(s.substr(i, 4).c_str(), nullptr, 16);
                    i += 4;
                    if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= s.size() && s[i] == '\\' && s[i + 1] == 'u') {
                        unsigned lo = (unsigned) strtoul(s.substr(i + 2, 4).c_str(), nullptr, 16);
                        i += 6;
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    }
                    if (cp < 0x80) v += (char) cp;
                    else if (cp < 0x800) { v += (char) (0xC0 | (cp >> 6)); v += (char) (0x80 | (cp & 0x3F)); }
                    else if (cp < 0x10000) {
                        v += (char) (0xE0 | (cp >> 12)); v += (char) (0x80 | ((cp >> 6) & 0x3F));
                        v += (char) (0x80 | (cp & 0x3F));
                    } else {
                        v += (char) (0xF0 | (cp >> 18)); v += (char) (0x80 | ((cp >> 12) & 0x3F));
                        v += (char) (0x80 | ((cp >> 6) & 0x3F)); v += (char) (0x80 | (cp & 0x3F));
                    }
                    break;
                }
                default: v += e;
            }
        }
        if (i >= s.size()) return false;
        i++;
        return true;
    };
    ws();
    if (i >= s.size() || s[i++] != '{') return false;
    ws();
    if (i < s.size() && s[i] == '}') return true;
    while (i < s.size()) {
        std::string key, value;
        ws();
        if (!str(key)) return false;
        ws();
        if (i >= s.size() || s[i++] != ':') return false;
        ws();
        if (i < s.size() && s[i] == '"') {
            if (!str(value)) return false;
        } else {
            while (i < s.size() && s[i] != ',' && s[i] != '}' && !isspace((unsigned char) s[i])) value += s[i++];
            if (value.empty()) return false;
        }
        out[key] = value;
        ws();
        if (i < s.size() && s[i] == ',') { i++; continue; }
        if (i < s.size() && s[i] == '}') return true;
        return false;
    }
    return false;
}

}  // namespace folio
