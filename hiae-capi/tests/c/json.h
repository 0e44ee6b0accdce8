/* A small JSON reader for the test vector files: objects, arrays, strings, numbers,
 * true/false/null. Strings keep their escapes decoded for \" \\ \/ \b \f \n \r \t; \uXXXX
 * becomes '?' (the vector files use none in the fields the tests read). */
#ifndef CAPI_TEST_JSON_H
#define CAPI_TEST_JSON_H

#include <stddef.h>
#include <stdint.h>

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jval {
    jtype        type;
    int          boolean;
    double       num;
    char        *str;   /* J_STR: NUL-terminated */
    size_t       n;     /* J_ARR, J_OBJ: number of items */
    struct jval *items; /* J_ARR: elements; J_OBJ: values */
    char       **keys;  /* J_OBJ: keys, parallel to items */
} jval;

/* Parses the file at path; NULL (with a message on stderr) if it cannot be read or parsed. */
jval *json_parse_file(const char *path);

/* The member `key` of object `obj`, or NULL if obj is not an object or has no such member. */
const jval *json_get(const jval *obj, const char *key);

/* The string member `key` of `obj`, or NULL. */
const char *json_str(const jval *obj, const char *key);

/* Frees a value returned by json_parse_file. */
void json_free(jval *v);

/* A byte string decoded from hex. */
typedef struct {
    uint8_t *p; /* never NULL: at least one byte is allocated */
    size_t   len;
} bytes;

/* Decodes lowercase or uppercase hex; exits the program on malformed input. */
bytes hex(const char *s);

void bytes_free(bytes *b);

#endif
