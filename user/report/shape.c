// SPDX-License-Identifier: GPL-2.0
/*
 * Shaping a frame's name for display, as async-profiler users expect:
 *
 * - Java lambdas and hidden classes lose the parts the JVM makes up at run
 *   time (Foo$$Lambda$16.0x00007f8b8c000a08.run -> Foo$$Lambda.run,
 *   LambdaForm$MH/0x0000000800c04400.invoke -> LambdaForm$MH.invoke,
 *   JFR's Foo$$Lambda+0x00007eff68007c18/990355670.run -> Foo$$Lambda.run,
 *   $Proxy12 -> $Proxy, GeneratedMethodAccessor7 -> GeneratedMethodAccessor),
 *   so that the same code has the same name from run to run (--raw-names
 *   keeps them);
 *   an allocated or locked class too (Foo$$Lambda.0x0000000721224c0 ->
 *   Foo$$Lambda);
 * - --simple drops a Java class's package (java.util.HashMap.get ->
 *   HashMap.get, java.lang.String[] -> String[]);
 * - C++ parameter lists, const and [clone ...] are dropped unless
 *   --signatures (JavaCalls::call_helper(JavaValue*, ...) ->
 *   JavaCalls::call_helper);
 * - a Java method's JVM signature (recorded after its name:
 *   Foo.bar(Ljava/lang/String;[I)V) is dropped unless --signatures, which
 *   shows its parameters as simple type names: Foo.bar(String, int[]).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "report/shape.h"

static bool is_java(enum pj_frame_type t)
{
	return t == PJ_FRAME_JIT || t == PJ_FRAME_INLINED ||
	       t == PJ_FRAME_INTERPRETED || t == PJ_FRAME_C1 ||
	       t == PJ_FRAME_JAVA_NATIVE;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Run-time made-up parts of Java names, dropped from s into out. */
static void java_normalise(const char *s, char *out, size_t len)
{
	static const char *const numbered[] = {
		"$$Lambda$",
		"$Proxy",
		"GeneratedMethodAccessor",
		"GeneratedConstructorAccessor",
		"GeneratedSerializationConstructorAccessor",
	};
	size_t n = 0;

	while (*s && n + 1 < len) {
		bool done = false;

		/* ".0x7f8b8c000a08" or "/0x0000000800c04400", or JFR's
		 * "+0x00007eff68007c18/990355670" */
		if ((*s == '.' || *s == '/' || *s == '+') && s[1] == '0' &&
		    s[2] == 'x' && isxdigit((unsigned char)s[3])) {
			bool jfr = *s == '+';

			s += 3;
			while (isxdigit((unsigned char)*s))
				s++;
			if (jfr && (*s == '/' || *s == '.') &&
			    isdigit((unsigned char)s[1]))
				for (s++; isdigit((unsigned char)*s);)
					s++;
			continue;
		}
		for (size_t i = 0; i < sizeof(numbered) / sizeof(*numbered);
		     i++) {
			size_t k = strlen(numbered[i]);

			if (!starts(s, numbered[i]) ||
			    !isdigit((unsigned char)s[k]))
				continue;
			/* "$$Lambda$" keeps "$$Lambda", the others their word */
			if (numbered[i][k - 1] == '$')
				k--;
			if (n + k >= len)
				k = len - 1 - n;
			memcpy(out + n, s, k);
			n += k;
			s += strlen(numbered[i]);
			while (isdigit((unsigned char)*s))
				s++;
			done = true;
			break;
		}
		if (!done)
			out[n++] = *s++;
	}
	out[n] = 0;
}

/* java.util.HashMap.get -> HashMap.get (the class is all but the method) */
static void java_simple(char *s)
{
	char *method = strrchr(s, '.'), *cls;

	if (!method)
		return;
	*method = 0;
	cls = strrchr(s, '.');
	*method = '.';
	if (cls && cls[1] == '0' && cls[2] == 'x') { /* raw hidden class */
		char *hidden = cls;

		*hidden = 0;
		cls = strrchr(s, '.');
		*hidden = '.';
	}
	if (cls)
		memmove(s, cls + 1, strlen(cls + 1) + 1);
}

/* java.lang.String[] -> String[] (a class frame: the class alone) */
static void class_simple(char *s)
{
	char *dot = strrchr(s, '.');

	if (dot && dot[1] == '0' && dot[2] == 'x') { /* raw hidden class */
		*dot = 0;
		char *prev = strrchr(s, '.');

		*dot = '.';
		dot = prev;
	}
	if (dot)
		memmove(s, dot + 1, strlen(dot + 1) + 1);
}

/* The ')' matching the '(' at s, or NULL. */
static const char *closing(const char *s)
{
	int depth = 0;

	for (; *s; s++) {
		if (*s == '(')
			depth++;
		else if (*s == ')' && !--depth)
			return s;
	}
	return NULL;
}

/*
 * Drops C++ parameter lists: ns::f(int, char*) const -> ns::f, and
 * f(int)::{lambda()#1}::operator()() -> f::{lambda()#1}::operator(). What is
 * inside <> or {}, "(anonymous namespace)" and operator() stay whole.
 */
static void cxx_drop_params(char *s)
{
	char *w = s;
	const char *r = s;
	int angle = 0;

	while (*r) {
		const char *end;

		if (*r == '<' || *r == '{')
			angle++;
		else if ((*r == '>' || *r == '}') && angle)
			angle--;
		if (*r != '(' || angle) {
			*w++ = *r++;
			continue;
		}
		if (starts(r, "(anonymous namespace)")) {
			size_t k = strlen("(anonymous namespace)");

			memmove(w, r, k);
			w += k;
			r += k;
			continue;
		}
		if (w - s >= 8 && !strncmp(w - 8, "operator", 8) &&
		    r[1] == ')') {
			*w++ = *r++;
			*w++ = *r++;
			continue;
		}
		end = closing(r);
		if (!end)
			break;
		r = end + 1;
		if (!starts(r, "::"))
			break; /* " const", " [clone .constprop.1]", ... */
	}
	*w = 0;
}

static void append(char *out, size_t len, size_t *n, const char *s, size_t k)
{
	if (*n + k >= len)
		k = len - 1 - *n;
	memcpy(out + *n, s, k);
	*n += k;
	out[*n] = 0;
}

/*
 * The parameters of the JVM method descriptor d ("(Ljava/lang/String;[I)V")
 * appended to out as "(String, int[])". A malformed descriptor ends the
 * list where it stops making sense.
 */
static void java_params(const char *d, char *out, size_t len)
{
	static const struct {
		char code;
		const char *name;
	} prim[] = { { 'B', "byte" },  { 'C', "char" },	  { 'D', "double" },
		     { 'F', "float" }, { 'I', "int" },	  { 'J', "long" },
		     { 'S', "short" }, { 'Z', "boolean" } };
	size_t n = strlen(out);
	bool first = true;

	append(out, len, &n, "(", 1);
	for (d++; *d && *d != ')';) {
		unsigned int dims = 0;
		const char *name = NULL, *end;
		size_t k = 0;

		while (*d == '[')
			dims++, d++;
		if (*d == 'L') {
			end = strchr(d, ';');
			if (!end)
				break;
			name = d + 1;
			for (const char *c = name; c < end; c++)
				if (*c == '/' || *c == '.')
					name = c + 1;
			k = (size_t)(end - name);
			d = end + 1;
		} else {
			for (size_t i = 0; i < sizeof(prim) / sizeof(*prim);
			     i++)
				if (prim[i].code == *d)
					name = prim[i].name;
			if (!name)
				break;
			k = strlen(name);
			d++;
		}
		if (!first)
			append(out, len, &n, ", ", 2);
		first = false;
		append(out, len, &n, name, k);
		while (dims--)
			append(out, len, &n, "[]", 2);
	}
	append(out, len, &n, ")", 1);
}

void report_shape_name(const char *name, enum pj_frame_type type,
		       unsigned int flags, char *out, size_t len)
{
	if (!len)
		return;
	if ((is_java(type) || type == PJ_FRAME_CLASS) && !(flags & SHAPE_RAW)) {
		java_normalise(name, out, len);
	} else {
		size_t n = strnlen(name, len - 1);

		memcpy(out, name, n); /* not strncpy: no padding to len */
		out[n] = 0;
	}
	if (is_java(type)) {
		char *paren = strchr(out, '('), desc[1024] = "";

		if (paren) {
			snprintf(desc, sizeof(desc), "%s", paren);
			*paren = 0;
		}
		if (flags & SHAPE_SIMPLE)
			java_simple(out);
		if (*desc && (flags & SHAPE_SIGNATURES))
			java_params(desc, out, len);
		return;
	}
	if (type == PJ_FRAME_CLASS) {
		if (flags & SHAPE_SIMPLE)
			class_simple(out);
		return;
	}
	if ((type == PJ_FRAME_NATIVE || type == PJ_FRAME_VM) &&
	    !(flags & SHAPE_SIGNATURES) && strchr(out, '('))
		cxx_drop_params(out);
}
