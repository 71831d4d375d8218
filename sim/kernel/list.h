/* list.h - the kernel's intrusive doubly linked list, with its names, so
 * policy code reads like mm/slub.c (list_add, list_del, list_for_each_entry). */
#ifndef SIM_LIST_H
#define SIM_LIST_H

#include <stddef.h>

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}

static inline void __list_add(struct list_head *n, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_add(n, head, head->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_add(n, head->prev, head);
}

static inline void list_del(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	e->next = e->prev = e;
}

/* Off its list and first (list_move) or last (list_move_tail) on head. */
static inline void list_move(struct list_head *e, struct list_head *head)
{
	list_del(e);
	list_add(e, head);
}

static inline void list_move_tail(struct list_head *e, struct list_head *head)
{
	list_del(e);
	list_add_tail(e, head);
}

static inline int list_empty(const struct list_head *head)
{
	return head->next == head;
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) list_entry((ptr)->next, type, member)

#define list_for_each(pos, head) for (pos = (head)->next; pos != (head); pos = pos->next)

/* The list_head inside *pos, found by address alone: at the end of a walk
 * pos stands for the head, which is no entry (and may sit at an address the
 * entry type's alignment does not allow), so no member of it is read. */
#define list_member_ptr(pos, member) \
	((struct list_head *)((char *)(pos) + offsetof(__typeof__(*(pos)), member)))

#define list_for_each_entry(pos, head, member)                                  \
	for (pos = list_entry((head)->next, __typeof__(*pos), member);          \
	     list_member_ptr(pos, member) != (head);                            \
	     pos = list_entry(list_member_ptr(pos, member)->next, __typeof__(*pos), member))

#define list_for_each_entry_safe(pos, n, head, member)                          \
	for (pos = list_entry((head)->next, __typeof__(*pos), member),          \
	     n = list_entry(list_member_ptr(pos, member)->next, __typeof__(*pos), member); \
	     list_member_ptr(pos, member) != (head);                            \
	     pos = n, n = list_entry(list_member_ptr(n, member)->next, __typeof__(*n), member))

#endif
