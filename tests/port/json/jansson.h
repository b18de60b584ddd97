/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The part of jansson's API the test programs use (tests/vectors, test_drbg, cross_m4_gen),
 * implemented over grove's own JSON reader (grove/json.h). Used only by builds that have no
 * jansson for their target (the cross and -m32 builds of tests/port: no foreign -dev package);
 * the native build keeps the real jansson. Differences: duplicate keys are always rejected,
 * error positions are not reported (line -1), json_dumps writes the compact form only.
 */
#ifndef GROVE_TEST_JANSSON_LITE_H
#define GROVE_TEST_JANSSON_LITE_H

#include <stddef.h>
#include <stdint.h>

typedef long long json_int_t;

typedef enum {
    JSON_OBJECT,
    JSON_ARRAY,
    JSON_STRING,
    JSON_INTEGER,
    JSON_REAL,
    JSON_TRUE,
    JSON_FALSE,
    JSON_NULL
} json_type;

typedef struct json_t {
    json_type type;
    size_t refcount;
    json_int_t ival;
    double rval;
    char *str;             /* STRING: NUL-terminated (may hold NULs: len)      */
    size_t len;            /* STRING: length; ARRAY/OBJECT: number of items    */
    size_t cap;            /* ARRAY/OBJECT: allocated items                    */
    struct json_t **items; /* ARRAY/OBJECT: the values                         */
    char **keys;           /* OBJECT: the keys, NUL-terminated                  */
} json_t;

#define JSON_ERROR_TEXT_LENGTH 160
typedef struct json_error_t {
    int line, column, position;
    char source[80];
    char text[JSON_ERROR_TEXT_LENGTH];
} json_error_t;

#define JSON_REJECT_DUPLICATES 0x1
#define JSON_DECODE_INT_AS_REAL 0x8
#define JSON_COMPACT 0x20

json_t *json_load_file(const char *path, size_t flags, json_error_t *error);
json_t *json_loads(const char *input, size_t flags, json_error_t *error);
char *json_dumps(const json_t *json, size_t flags);
void json_decref(json_t *json);
json_t *json_array(void);
int json_array_append(json_t *array, json_t *value);
int json_equal(const json_t *a, const json_t *b);

json_t *json_object_get(const json_t *object, const char *key);
size_t json_object_size(const json_t *object);
const char *json_object_key_at(const json_t *object, size_t i);
json_t *json_object_value_at(const json_t *object, size_t i);
size_t json_array_size(const json_t *array);
json_t *json_array_get(const json_t *array, size_t index);
const char *json_string_value(const json_t *string);
size_t json_string_length(const json_t *string);
json_int_t json_integer_value(const json_t *integer);
double json_real_value(const json_t *real);
double json_number_value(const json_t *json);

#define json_typeof(j) ((j)->type)
#define json_is_object(j) ((j) != NULL && json_typeof(j) == JSON_OBJECT)
#define json_is_array(j) ((j) != NULL && json_typeof(j) == JSON_ARRAY)
#define json_is_string(j) ((j) != NULL && json_typeof(j) == JSON_STRING)
#define json_is_integer(j) ((j) != NULL && json_typeof(j) == JSON_INTEGER)
#define json_is_real(j) ((j) != NULL && json_typeof(j) == JSON_REAL)
#define json_is_number(j) (json_is_integer(j) || json_is_real(j))
#define json_is_true(j) ((j) != NULL && json_typeof(j) == JSON_TRUE)
#define json_is_false(j) ((j) != NULL && json_typeof(j) == JSON_FALSE)
#define json_is_boolean(j) (json_is_true(j) || json_is_false(j))
#define json_is_null(j) ((j) != NULL && json_typeof(j) == JSON_NULL)

#define json_array_foreach(array, index, value)                                                   \
    for ((index) = 0;                                                                            \
         (index) < json_array_size(array) && ((value) = json_array_get((array), (index))) != NULL; \
         (index)++)
#define json_object_foreach(object, key, value)                                                  \
    for (size_t json_lite_i_ = 0;                                                                \
         json_lite_i_ < json_object_size(object) &&                                              \
         ((key) = json_object_key_at((object), json_lite_i_)) != NULL &&                         \
         ((value) = json_object_value_at((object), json_lite_i_)) != NULL;                       \
         json_lite_i_++)

#endif
