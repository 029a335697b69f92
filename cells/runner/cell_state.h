/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One directory per cell under CELL_RUN_DIR (/run/colorguard/<cell>/,
 * 0700, root's): "owner" names the process that holds the cell (pid and
 * its start time, so a reused pid is not taken for it), "journal" is
 * cell_host's journal of the claim, "sock" the supervisor's control
 * socket. A directory whose owner is gone is stale: `colorguard cell gc`
 * (and a new create of the cell, and `cell list`) replays its journal,
 * removes its /dev/mm-color-<cell> (unless a VMM still maps it) and the
 * directory. Only a successful replay removes a journal, so a directory
 * whose claim could not be given back stays, stale, for the next gc.
 */
#ifndef COLORGUARD_CELL_STATE_H
#define COLORGUARD_CELL_STATE_H

#include <stddef.h>
#include <sys/types.h>

/* Cell names as the config allows them: 1-31 of A-Z a-z 0-9 _ - . */
int cell_name_ok(const char *name);

/* path of file `file` (NULL: the directory) of cell `name`. */
void cell_state_path(const char *name, const char *file, char *buf,
		     size_t len);

/*
 * Make the cell's directory and write this process as its owner. A stale
 * directory is cleaned first; a live one is -EEXIST ("cell exists").
 */
int cell_state_create(const char *name, char *why, size_t why_len);

/* Rewrite the owner file for pid (the supervisor after it forked). */
int cell_state_set_owner(const char *name, pid_t pid);

/* Drop the owner file: the directory becomes stale (cleaned by the next). */
void cell_state_disown(const char *name);

/* 1: the directory exists and its owner lives; 0: none or stale. */
int cell_state_live(const char *name, pid_t *owner);

/*
 * Clean a stale directory: replay its journal, remove its files.
 * -EBUSY if its owner lives.
 */
int cell_state_clean(const char *name, char *why, size_t why_len);

/*
 * Remove /dev/mm-color-<name> (mm-color's devices file); -EBUSY while a
 * VMM still has it open or mapped, -ENOENT if there is none.
 */
int cell_node_remove(const char *name);

/*
 * Remove the directory and its files (the owner, at the end); a journal
 * still there (a claim not given back) keeps it, stale.
 */
void cell_state_remove(const char *name);

#endif
