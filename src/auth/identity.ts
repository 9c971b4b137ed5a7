/** Who made a request, as keystonemiddleware's X-* headers describe a validated token. */
export interface Identity {
  userId: string | null;
  userName: string | null;
  userDomainId: string | null;
  projectId: string | null;
  projectName: string | null;
  projectDomainId: string | null;
  domainId: string | null;
  /** `all` for a system-scoped token, null otherwise. */
  systemScope: string | null;
  roles: string[];
  isAdminProject: boolean;
  /** When Keystone says the token stops being valid (epoch ms). */
  expiresAt: number;
}
