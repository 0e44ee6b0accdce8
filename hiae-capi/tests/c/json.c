#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s;
    size_t      pos;
    size_t      len;
    int         failed;
} parser;

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (q == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return q;
}

static void skip_ws(parser *ps)
{
    while (ps->pos < ps->len && strchr(" \t\r\n", ps->s[ps->pos]) != NULL) {
        ps->pos++;
    }
}

static int expect(parser *ps, char c)
{
    skip_ws(ps);
    if (ps->pos < ps->len && ps->s[ps->pos] == c) {
        ps->pos++;
        return 1;
    }
    ps->failed = 1;
    return 0;
}

static int parse_value(parser *ps, jval *out);

static char *parse_string(parser *ps)
{
    if (!expect(ps, '"')) {
        return NULL;
    }
    size_t cap = 16, n = 0;
    char  *buf = xrealloc(NULL, cap);
    while (ps->pos < ps->len && ps->s[ps->pos] != '"') {
        char c = ps->s[ps->pos++];
        if (c == '\\' && ps->pos < ps->len) {
            char e = ps->s[ps->pos++];
            switch (e) {
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'u':
                c = '?';
                ps->pos += 4;
                break;
            default: c = e; break;
            }
        }
        if (n + 1 >= cap) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        buf[n++] = c;
    }
    if (ps->pos >= ps->len) {
        ps->failed = 1;
        free(buf);
        return NULL;
    }
    ps->pos++;
    buf[n] = '\0';
    return buf;
}

static int parse_container(parser *ps, jval *out, int is_obj)
{
    char close = is_obj ? '}' : ']';
    out->type  = is_obj ? J_OBJ : J_ARR;
    ps->pos++;
    skip_ws(ps);
    if (ps->pos < ps->len && ps->s[ps->pos] == close) {
        ps->pos++;
        return 1;
    }
    for (;;) {
        out->items = xrealloc(out->items, (out->n + 1) * sizeof *out->items);
        memset(&out->items[out->n], 0, sizeof *out->items);
        if (is_obj) {
            out->keys = xrealloc(out->keys, (out->n + 1) * sizeof *out->keys);
            skip_ws(ps);
            out->keys[out->n] = parse_string(ps);
            if (out->keys[out->n] == NULL || !expect(ps, ':')) {
                out->n += out->keys[out->n] != NULL;
                return 0;
            }
        }
        int ok = parse_value(ps, &out->items[out->n]);
        out->n++;
        if (!ok) {
            return 0;
        }
        skip_ws(ps);
        if (ps->pos < ps->len && ps->s[ps->pos] == ',') {
            ps->pos++;
            continue;
        }
        return expect(ps, close);
    }
}

static int parse_value(parser *ps, jval *out)
{
    skip_ws(ps);
    if (ps->pos >= ps->len) {
        ps->failed = 1;
        return 0;
    }
    char c = ps->s[ps->pos];
    if (c == '{' || c == '[') {
        return parse_container(ps, out, c == '{');
    }
    if (c == '"') {
        out->type = J_STR;
        out->str  = parse_string(ps);
        return out->str != NULL;
    }
    if (strncmp(ps->s + ps->pos, "true", 4) == 0 || strncmp(ps->s + ps->pos, "false", 5) == 0) {
        out->type    = J_BOOL;
        out->boolean = c == 't';
        ps->pos += c == 't' ? 4 : 5;
        return 1;
    }
    if (strncmp(ps->s + ps->pos, "null", 4) == 0) {
        out->type = J_NULL;
        ps->pos += 4;
        return 1;
    }
    char *end = NULL;
    out->type = J_NUM;
    out->num  = strtod(ps->s + ps->pos, &end);
    if (end == ps->s + ps->pos) {
        ps->failed = 1;
        return 0;
    }
    ps->pos = (size_t) (end - ps->s);
    return 1;
}

jval *json_parse_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0, got;
    char  *text = xrealloc(NULL, cap + 1);
    while ((got = fread(text + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            text = xrealloc(text, cap + 1);
        }
    }
    fclose(f);
    text[n]     = '\0';
    parser ps   = { text, 0, n, 0 };
    jval  *root = calloc(1, sizeof *root);
    if (root == NULL) {
        exit(2);
    }
    int ok = parse_value(&ps, root);
    free(text);
    if (!ok || ps.failed) {
        fprintf(stderr, "%s: JSON parse error near byte %zu\n", path, ps.pos);
        json_free(root);
        return NULL;
    }
    return root;
}

const jval *json_get(const jval *obj, const char *key)
{
    if (obj == NULL || obj->type != J_OBJ) {
        return NULL;
    }
    for (size_t i = 0; i < obj->n; i++) {
        if (strcmp(obj->keys[i], key) == 0) {
            return &obj->items[i];
        }
    }
    return NULL;
}

const char *json_str(const jval *obj, const char *key)
{
    const jval *v = json_get(obj, key);
    return v != NULL && v->type == J_STR ? v->str : NULL;
}

static void free_inner(jval *v)
{
    for (size_t i = 0; i < v->n; i++) {
        free_inner(&v->items[i]);
        if (v->type == J_OBJ) {
            free(v->keys[i]);
        }
    }
    free(v->items);
    free(v->keys);
    free(v->str);
}

void json_free(jval *v)
{
    if (v != NULL) {
        free_inner(v);
        free(v);
    }
}

static int nibble(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bytes hex(const char *s)
{
    size_t n = s == NULL ? 0 : strlen(s);
    bytes  b = { xrealloc(NULL, n / 2 + 1), n / 2 };
    for (size_t i = 0; i < n; i += 2) {
        int hi = nibble(s[i]), lo = i + 1 < n ? nibble(s[i + 1]) : -1;
        if (hi < 0 || lo < 0) {
            fprintf(stderr, "bad hex string: %s\n", s);
            exit(2);
        }
        b.p[i / 2] = (uint8_t) (hi << 4 | lo);
    }
    return b;
}

void bytes_free(bytes *b)
{
    free(b->p);
    b->p   = NULL;
    b->len = 0;
}
