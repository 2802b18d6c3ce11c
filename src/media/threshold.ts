/** Files larger than this (10 MiB) are uploaded with TUS unless `resumable: false`. */
export const RESUMABLE_THRESHOLD = 10485760;
