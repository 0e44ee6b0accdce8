#![no_std]
#![doc = include_str!("../README.md")]
