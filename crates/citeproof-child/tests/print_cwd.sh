#!/bin/sh
# Prints its working directory, then how many entries it holds.
pwd
ls -A | wc -l | tr -d " "
