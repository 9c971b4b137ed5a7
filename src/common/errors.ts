/**
 * The one registry of errors: Ironic's exception names, HTTP codes and message templates
 * (`%(name)s` placeholders filled from params). Only the API's fault middleware turns them into
 * `{"error_message": ...}`; nothing else knows that wire format.
 */
export type ErrorParams = Record<string, unknown>;

export class IronicError extends Error {
  readonly kind: string = 'IronicException';
  readonly code: number = 500;
  /** Ironic reports 4xx as the client's fault, everything else as the server's. */
  get faultcode(): 'Client' | 'Server' {
    return this.code >= 400 && this.code < 500 ? 'Client' : 'Server';
  }
  constructor(params?: ErrorParams | string) {
    super(typeof params === 'string' ? params : 'An unknown exception occurred.');
  }
}

export type IronicErrorClass = new (params?: ErrorParams | string) => IronicError;

/** Ironic's `code=` keyword: this one exception answers with another HTTP status than its class's. */
export function withCode<E extends IronicError>(err: E, code: number): E {
  Object.defineProperty(err, 'code', { value: code, enumerable: true });
  return err;
}

/** A NotFound for an object the request body names: Ironic raises these with code=400. */
export function inBody<E extends IronicError>(err: E): E {
  return withCode(err, 400);
}

export function formatTemplate(template: string, params: ErrorParams): string {
  return template.replace(/%\((\w+)\)s/g, (whole, name: string) => (Object.hasOwn(params, name) ? display(params[name]) : whole));
}

function display(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Every exception class defineError made, by its Ironic name (the table the wire and DB faults read). */
const ERROR_CLASSES = new Map<string, IronicErrorClass>();

/** The exception class Ironic names `kind` (a name from the wire or the database layer), if there is one. */
export function errorClass(kind: string): IronicErrorClass | null {
  return ERROR_CLASSES.get(kind) ?? null;
}

/** A typed Ironic error: pass params for the template, or a finished message string. */
export function defineError(kind: string, code: number, template: string, base: IronicErrorClass = IronicError): IronicErrorClass {
  const cls = class extends base {
    override readonly kind = kind;
    override readonly code = code;
    constructor(params?: ErrorParams | string) {
      super();
      this.message = typeof params === 'string' ? params : formatTemplate(template, params ?? {});
      this.name = kind;
    }
  };
  Object.defineProperty(cls, 'name', { value: kind });
  // The table's class keeps its name; a controller's local webob error of the same name does not replace it.
  if (!ERROR_CLASSES.has(kind)) ERROR_CLASSES.set(kind, cls);
  return cls;
}

export const AgentAPIError = defineError('AgentAPIError', 500, "Agent API for node %(node)s returned HTTP status code %(status)s with error: %(error)s", IronicError);
export const AgentCommandTimeout = defineError('AgentCommandTimeout', 500, "Timeout executing command %(command)s on node %(node)s", IronicError);
export const AgentConnectionFailed = defineError('AgentConnectionFailed', 500, "Connection to agent failed: %(reason)s", IronicError);
export const AgentInProgress = defineError('AgentInProgress', 500, "Node %(node)s command \"%(command)s\" failed. Agent is presently executing a command. Error %(error)s", IronicError);
export const Conflict = defineError('Conflict', 409, "Conflict.", IronicError);
export const AllocationAlreadyExists = defineError('AllocationAlreadyExists', 409, "An allocation with UUID %(uuid)s already exists.", Conflict);
export const AllocationDuplicateName = defineError('AllocationDuplicateName', 409, "An allocation with name %(name)s already exists.", Conflict);
export const AllocationFailed = defineError('AllocationFailed', 500, "Failed to process allocation %(uuid)s: %(error)s.", IronicError);
export const NotFound = defineError('NotFound', 404, "Resource could not be found.", IronicError);
export const AllocationNotFound = defineError('AllocationNotFound', 404, "Allocation %(allocation)s could not be found.", NotFound);
export const BIOSSettingAlreadyExists = defineError('BIOSSettingAlreadyExists', 409, "A BIOS setting %(name)s for node %(node)s already exists.", Conflict);
export const BIOSSettingListNotFound = defineError('BIOSSettingListNotFound', 404, "Node %(node)s doesn't have BIOS settings '%(names)s'", NotFound);
export const BIOSSettingNotFound = defineError('BIOSSettingNotFound', 404, "Node %(node)s doesn't have a BIOS setting '%(name)s'", NotFound);
export const BadRequest = defineError('BadRequest', 500, "An unknown exception occurred.", IronicError);
export const CatalogNotFound = defineError('CatalogNotFound', 500, "Service type %(service_type)s with endpoint type %(endpoint_type)s not found in keystone service catalog.", IronicError);
export const ChassisAlreadyExists = defineError('ChassisAlreadyExists', 409, "A chassis with UUID %(uuid)s already exists.", Conflict);
export const Invalid = defineError('Invalid', 400, "Unacceptable parameters.", IronicError);
export const ChassisNotEmpty = defineError('ChassisNotEmpty', 400, "Cannot complete the requested action because chassis %(chassis)s contains nodes.", Invalid);
export const ChassisNotFound = defineError('ChassisNotFound', 404, "Chassis %(chassis)s could not be found.", NotFound);
export const ChildNodeLocked = defineError('ChildNodeLocked', 409, "Node %(node)s child_node %(child)s is presently locked and we are unable to perform any action on it at this time. Please retry after the current operation is completed.", Conflict);
export const CommunicationError = defineError('CommunicationError', 500, "Unable to communicate with the server.", IronicError);
export const ConcurrentActionLimit = defineError('ConcurrentActionLimit', 500, "Unable to process request at this time. The concurrent action limit for %(task_type)s has been reached. Please contact your administrator and try again later.", IronicError);
export const ConductorAlreadyRegistered = defineError('ConductorAlreadyRegistered', 500, "Conductor %(conductor)s already registered.", IronicError);
export const ConductorHardwareInterfacesAlreadyRegistered = defineError('ConductorHardwareInterfacesAlreadyRegistered', 500, "Duplication detected for hardware_type, interface_type and interface combinations for this conductor while registering the row %(row)s", IronicError);
export const ConductorNotFound = defineError('ConductorNotFound', 404, "Conductor %(conductor)s could not be found.", NotFound);
export const ConfigInvalid = defineError('ConfigInvalid', 500, "Invalid configuration file. %(error_msg)s", IronicError);
export const ConfigNotFound = defineError('ConfigNotFound', 500, "Could not find config at %(path)s", IronicError);
export const ConsoleError = defineError('ConsoleError', 500, "An unknown exception occurred.", IronicError);
export const ConsoleSubprocessFailed = defineError('ConsoleSubprocessFailed', 500, "Console subprocess failed to start. %(error)s", ConsoleError);
export const DHCPLoadError = defineError('DHCPLoadError', 500, "Failed to load DHCP provider %(dhcp_provider_name)s, reason: %(reason)s", IronicError);
export const DatabaseVersionTooOld = defineError('DatabaseVersionTooOld', 500, "Database version is too old", IronicError);
export const DeployTemplateAlreadyExists = defineError('DeployTemplateAlreadyExists', 409, "A deploy template with UUID %(uuid)s already exists.", Conflict);
export const DeployTemplateDuplicateName = defineError('DeployTemplateDuplicateName', 409, "A deploy template with name %(name)s already exists.", Conflict);
export const DeployTemplateNotFound = defineError('DeployTemplateNotFound', 404, "Deploy template %(template)s could not be found.", NotFound);
export const DirectoryNotWritable = defineError('DirectoryNotWritable', 500, "Directory %(dir)s is not writable.", IronicError);
export const DriverOperationError = defineError('DriverOperationError', 500, "Runtime driver %(driver)s failure. Reason: %(reason)s.", IronicError);
export const DracOperationError = defineError('DracOperationError', 500, "DRAC operation failed. Reason: %(error)s", DriverOperationError);
export const DriverLoadError = defineError('DriverLoadError', 500, "Driver, hardware type or interface %(driver)s could not be loaded. Reason: %(reason)s.", IronicError);
export const DriverNotFound = defineError('DriverNotFound', 404, "Could not find the following driver(s) or hardware type(s): %(driver_name)s.", NotFound);
export const DriverNotFoundInEntrypoint = defineError('DriverNotFoundInEntrypoint', 404, "Could not find the following items in the '%(entrypoint)s' entrypoint: %(names)s.", DriverNotFound);
export const Duplicate = defineError('Duplicate', 500, "Resource already exists.", IronicError);
export const DuplicateName = defineError('DuplicateName', 409, "A node with name %(name)s already exists.", Conflict);
export const NotAuthorized = defineError('NotAuthorized', 403, "Not authorized.", IronicError);
export const ExclusiveLockRequired = defineError('ExclusiveLockRequired', 403, "An exclusive lock is required, but the current context has a shared lock.", NotAuthorized);
export const FailedToCleanDHCPOpts = defineError('FailedToCleanDHCPOpts', 500, "Clean up DHCP options on node: %(node)s failed.", IronicError);
export const FailedToGetIPAddressOnPort = defineError('FailedToGetIPAddressOnPort', 500, "Retrieve IP address on port: %(port_id)s failed.", IronicError);
export const FailedToGetSensorData = defineError('FailedToGetSensorData', 500, "Failed to get sensor data for node %(node)s. Error: %(error)s", IronicError);
export const FailedToParseSensorData = defineError('FailedToParseSensorData', 500, "Failed to parse sensor data for node %(node)s. Error: %(error)s", IronicError);
export const FailedToUpdateDHCPOptOnPort = defineError('FailedToUpdateDHCPOptOnPort', 500, "Update DHCP options on port: %(port_id)s failed.", IronicError);
export const FailedToUpdateMacOnPort = defineError('FailedToUpdateMacOnPort', 500, "Update MAC address on port: %(port_id)s failed.", IronicError);
export const FileSystemNotSupported = defineError('FileSystemNotSupported', 500, "Failed to create a file system. File system %(fs)s is not supported.", IronicError);
export const Forbidden = defineError('Forbidden', 500, "Requested OpenStack Images API is forbidden", IronicError);
export const GlanceConnectionFailed = defineError('GlanceConnectionFailed', 500, "Connection to glance endpoint %(endpoint)s failed: %(reason)s", IronicError);
export const HTTPForbidden = defineError('HTTPForbidden', 403, "Access was denied to the following resource: %(resource)s", NotAuthorized);
export const HTTPNotFound = defineError('HTTPNotFound', 404, "Resource could not be found.", NotFound);
export const HardwareInspectionFailure = defineError('HardwareInspectionFailure', 500, "Failed to inspect hardware. Reason: %(error)s", IronicError);
export const InspectionRuleAlreadyExists = defineError('InspectionRuleAlreadyExists', 409, "A rule with UUID %(uuid)s already exists.", Conflict);
export const InspectionRuleNotFound = defineError('InspectionRuleNotFound', 404, "Rule %(rule)s could not be found.", NotFound);
export const InspectionRuleValidationFailure = defineError('InspectionRuleValidationFailure', 500, "Inspection rule validation failed. Reason: %(reason)s", IronicError);
export const InspectionRuleExecutionFailure = defineError('InspectionRuleExecutionFailure', 500, "Inspection rule execution failed. Reason: %(reason)s", HardwareInspectionFailure);
export const RuleActionExecutionFailure = defineError('RuleActionExecutionFailure', 500, "Inspection rule action execution failed. Reason: %(reason)s", InspectionRuleExecutionFailure);
export const RuleConditionCheckFailure = defineError('RuleConditionCheckFailure', 500, "Inspection rule condition check failed. Reason: %(reason)s", InspectionRuleExecutionFailure);
export const IBMCError = defineError('IBMCError', 500, "IBMC exception occurred on node %(node)s. Error: %(error)s", DriverOperationError);
export const IBMCConnectionError = defineError('IBMCConnectionError', 500, "IBMC connection failed for node %(node)s: %(error)s", IBMCError);
export const IPMIFailure = defineError('IPMIFailure', 500, "IPMI call failed: %(cmd)s.", IronicError);
export const IRMCOperationError = defineError('IRMCOperationError', 500, "iRMC %(operation)s failed. Reason: %(error)s", DriverOperationError);
export const IRMCSharedFileSystemNotMounted = defineError('IRMCSharedFileSystemNotMounted', 500, "iRMC shared file system '%(share)s' is not mounted.", DriverOperationError);
export const IloOperationError = defineError('IloOperationError', 500, "%(operation)s failed, error: %(error)s", DriverOperationError);
export const IloOperationNotSupported = defineError('IloOperationNotSupported', 500, "%(operation)s not supported. error: %(error)s", DriverOperationError);
export const ImageUnacceptable = defineError('ImageUnacceptable', 500, "Image %(image_id)s is unacceptable: %(reason)s", IronicError);
export const InvalidImage = defineError('InvalidImage', 500, "The requested image is not valid for use.", ImageUnacceptable);
export const ImageChecksumAlgorithmFailure = defineError('ImageChecksumAlgorithmFailure', 500, "The requested image checksum algorithm cannot be loaded.", InvalidImage);
export const ImageChecksumError = defineError('ImageChecksumError', 500, "The supplied image checksum is invalid or does not match.", InvalidImage);
export const ImageChecksumFileReadFailure = defineError('ImageChecksumFileReadFailure', 503, "Failed to read the file from local storage to perform a checksum operation.", InvalidImage);
export const ImageChecksumURLNotSupported = defineError('ImageChecksumURLNotSupported', 500, "Use of remote checksum files is not supported.", InvalidImage);
export const ImageConvertFailed = defineError('ImageConvertFailed', 500, "Image %(image_id)s is unacceptable: %(reason)s", IronicError);
export const ImageCreationFailed = defineError('ImageCreationFailed', 500, "Creating %(image_type)s image failed: %(error)s", IronicError);
export const ImageDownloadFailed = defineError('ImageDownloadFailed', 500, "Failed to download image %(image_href)s, reason: %(reason)s", IronicError);
export const ImageNotAuthorized = defineError('ImageNotAuthorized', 403, "Not authorized for image %(image_id)s.", NotAuthorized);
export const ImageNotFound = defineError('ImageNotFound', 404, "Image %(image_id)s could not be found.", NotFound);
export const ImageRefIsARedirect = defineError('ImageRefIsARedirect', 500, "Received a URL redirect when attempting to evaluate image reference %(image_ref)s pointing to %(redirect_url)s. This may, or may not be recoverable.", IronicError);
export const ImageRefValidationFailed = defineError('ImageRefValidationFailed', 500, "Validation of image href %(image_href)s failed, reason: %(reason)s", IronicError);
export const ImageUploadFailed = defineError('ImageUploadFailed', 500, "Failed to upload %(image_name)s image to web server %(web_server)s, reason: %(reason)s", IronicError);
export const InvalidParameterValue = defineError('InvalidParameterValue', 400, "%(err)s", Invalid);
export const InvalidNodeInventory = defineError('InvalidNodeInventory', 400, "Inventory for node %(node)s is invalid: %(reason)s", Invalid);
export const IncompatibleInterface = defineError('IncompatibleInterface', 400, "%(interface_type)s interface implementation '%(interface_impl)s' is not supported by hardware type %(hardware_type)s.", InvalidParameterValue);
export const IncompleteLookup = defineError('IncompleteLookup', 400, "At least one of 'addresses' and 'node_uuid' parameters is required", Invalid);
export const IncorrectConfiguration = defineError('IncorrectConfiguration', 500, "Supplied configuration is incorrect and must be fixed. Error: %(error)s", IronicError);
export const InputFileError = defineError('InputFileError', 500, "Error with file %(file_name)s. Reason: %(reason)s", IronicError);
export const InstanceAssociated = defineError('InstanceAssociated', 409, "Instance %(instance_uuid)s is already associated with a node, it cannot be associated with this other node %(node)s", Conflict);
export const InstanceDeployFailure = defineError('InstanceDeployFailure', 500, "Failed to deploy instance: %(reason)s", IronicError);
export const InstanceNotFound = defineError('InstanceNotFound', 404, "Instance %(instance)s could not be found.", NotFound);
export const InstanceRescueFailure = defineError('InstanceRescueFailure', 500, "Failed to rescue instance %(instance)s for node %(node)s: %(reason)s", IronicError);
export const InstanceUnrescueFailure = defineError('InstanceUnrescueFailure', 500, "Failed to unrescue instance %(instance)s for node %(node)s: %(reason)s", IronicError);
export const InsufficientDiskSpace = defineError('InsufficientDiskSpace', 500, "Disk volume where '%(path)s' is located doesn't have enough disk space. Required %(required)d MiB, only %(actual)d MiB available space present.", IronicError);
export const InsufficientMemory = defineError('InsufficientMemory', 500, "Available memory at %(free)s, Insufficient as %(required)s is required to proceed at this time.", IronicError);
export const InterfaceNotFoundInEntrypoint = defineError('InterfaceNotFoundInEntrypoint', 400, "Could not find the following interface in the '%(entrypoint)s' entrypoint: %(iface)s. Valid interfaces are %(valid)s.", InvalidParameterValue);
export const InvalidConductorGroup = defineError('InvalidConductorGroup', 400, "Expected a conductor group but received %(group)s.", Invalid);
export const InvalidContent = defineError('InvalidContent', 400, "Invalid or potentially malicious content has been provided to the conductor and the conductor will not proceed.", Invalid);
export const InvalidDatapathID = defineError('InvalidDatapathID', 400, "Expected an OpenFlow datapath ID but received %(datapath_id)s.", Invalid);
export const InvalidDeployTemplate = defineError('InvalidDeployTemplate', 400, "Deploy template invalid: %(err)s.", Invalid);
export const InvalidEndpoint = defineError('InvalidEndpoint', 500, "The provided endpoint is invalid", IronicError);
export const InvalidIPAddress = defineError('InvalidIPAddress', 500, "Invalid IP address %(ip_address)s.", IronicError);
export const InvalidIPv4Address = defineError('InvalidIPv4Address', 500, "Invalid IPv4 address %(ip_address)s.", IronicError);
export const InvalidIdentity = defineError('InvalidIdentity', 400, "Expected a UUID or int but received %(identity)s.", Invalid);
export const InvalidImageRef = defineError('InvalidImageRef', 400, "Invalid image href %(image_href)s.", InvalidParameterValue);
export const InvalidKickstartFile = defineError('InvalidKickstartFile', 400, "The kickstart file is not valid.", Invalid);
export const InvalidKickstartTemplate = defineError('InvalidKickstartTemplate', 400, "The kickstart template is missing required variables", Invalid);
export const InvalidMAC = defineError('InvalidMAC', 400, "Expected a MAC address but received %(mac)s.", Invalid);
export const InvalidName = defineError('InvalidName', 400, "Expected a logical name but received %(name)s.", Invalid);
export const InvalidState = defineError('InvalidState', 409, "Invalid resource state.", Conflict);
export const InvalidStateRequested = defineError('InvalidStateRequested', 400, "The requested action \"%(action)s\" can not be performed on node \"%(node)s\" while it is in state \"%(state)s\".", Invalid);
export const InvalidSwitchID = defineError('InvalidSwitchID', 400, "Expected a MAC address or OpenFlow datapath ID but received %(switch_id)s.", Invalid);
export const InvalidUUID = defineError('InvalidUUID', 400, "Expected a UUID but received %(uuid)s.", Invalid);
export const InvalidUuidOrName = defineError('InvalidUuidOrName', 400, "Expected a logical name or UUID but received %(name)s.", Invalid);
export const KeystoneFailure = defineError('KeystoneFailure', 500, "An unknown exception occurred.", IronicError);
export const KeystoneUnauthorized = defineError('KeystoneUnauthorized', 500, "Not authorized in Keystone.", IronicError);
export const MACAlreadyExists = defineError('MACAlreadyExists', 409, "A port with MAC address %(mac)s already exists.", Conflict);
export const MissingParameterValue = defineError('MissingParameterValue', 400, "%(err)s", InvalidParameterValue);
export const NetworkError = defineError('NetworkError', 500, "Network operation failure.", IronicError);
export const NoConsolePid = defineError('NoConsolePid', 500, "Could not find pid in pid file %(pid_path)s", ConsoleError);
export const NoDriversLoaded = defineError('NoDriversLoaded', 500, "Conductor %(conductor)s cannot be started because no hardware types were loaded.", IronicError);
export const ParentNodeLocked = defineError('ParentNodeLocked', 409, "Node %(node)s parent_node %(parent)s is presently locked and we are unable to perform any action on it at this time. Please retry after the current operation is completed.", Conflict);
export const TemporaryFailure = defineError('TemporaryFailure', 503, "Resource temporarily unavailable, please retry.", IronicError);
export const NoFreeConductorWorker = defineError('NoFreeConductorWorker', 503, "Requested action cannot be performed due to lack of free conductor workers.", TemporaryFailure);
export const NoFreeIPMITerminalPorts = defineError('NoFreeIPMITerminalPorts', 503, "Unable to allocate a free port on host %(host)s for IPMI terminal, not enough free ports.", TemporaryFailure);
export const NoFreePhysicalPorts = defineError('NoFreePhysicalPorts', 400, "Unable to attach VIF %(vif)s, not enough free physical ports.", Invalid);
export const NoValidDefaultForInterface = defineError('NoValidDefaultForInterface', 400, "For%(node_info)s hardware type '%(driver)s', no default value found for %(interface_type)s interface could be determined. Please ensure the interfaces are enabled.", InvalidParameterValue);
export const NoValidHost = defineError('NoValidHost', 404, "No valid host was found. Reason: %(reason)s", NotFound);
export const NodeAlreadyExists = defineError('NodeAlreadyExists', 409, "A node with UUID %(uuid)s already exists.", Conflict);
export const NodeAssociated = defineError('NodeAssociated', 409, "Node %(node)s is associated with instance %(instance)s.", InvalidState);
export const NodeCleaningFailure = defineError('NodeCleaningFailure', 500, "Failed to clean node %(node)s: %(reason)s", IronicError);
export const NodeServicingFailure = defineError('NodeServicingFailure', 500, "Failed to service node %(node)s: %(reason)s", IronicError);
export const NodeConsoleNotEnabled = defineError('NodeConsoleNotEnabled', 400, "Console access is not enabled on node %(node)s", Invalid);
export const NodeHistoryNotFound = defineError('NodeHistoryNotFound', 404, "Node history record %(history)s could not be found.", NotFound);
export const NodeInMaintenance = defineError('NodeInMaintenance', 400, "The %(op)s operation can't be performed on node %(node)s because it's in maintenance mode.", Invalid);
export const NodeInventoryAlreadyExists = defineError('NodeInventoryAlreadyExists', 409, "A node inventory with ID %(id)s already exists.", Conflict);
export const NodeInventoryNotFound = defineError('NodeInventoryNotFound', 404, "Node inventory record for node %(node)s could not be found.", NotFound);
export const NodeIsRetired = defineError('NodeIsRetired', 400, "The %(op)s operation can't be performed on node %(node)s because it is retired.", Invalid);
export const NodeLocked = defineError('NodeLocked', 409, "Node %(node)s is locked by host %(host)s, please retry after the current operation is completed.", Conflict);
export const NodeMaintenanceFailure = defineError('NodeMaintenanceFailure', 400, "Failed to toggle maintenance-mode flag for node %(node)s: %(reason)s", Invalid);
export const NodeNotFound = defineError('NodeNotFound', 404, "Node %(node)s could not be found.", NotFound);
export const NodeNotLocked = defineError('NodeNotLocked', 400, "Node %(node)s found not to be locked on release", Invalid);
export const NodeProtected = defineError('NodeProtected', 403, "Node %(node)s is protected and cannot be undeployed, rebuilt or deleted", IronicError);
export const NodeTagNotFound = defineError('NodeTagNotFound', 500, "Node %(node_id)s doesn't have a tag '%(tag)s'", IronicError);
export const NodeTraitNotFound = defineError('NodeTraitNotFound', 404, "Node %(node_id)s doesn't have a trait '%(trait)s'", NotFound);
export const NodeVerifyFailure = defineError('NodeVerifyFailure', 500, "Failed to verify node %(node)s: %(reason)s", IronicError);
export const NotAcceptable = defineError('NotAcceptable', 406, "Request not acceptable.", IronicError);
export const NotificationPayloadError = defineError('NotificationPayloadError', 500, "Payload not populated when trying to send notification \"%(class_name)s\"", IronicError);
export const NotificationSchemaKeyError = defineError('NotificationSchemaKeyError', 500, "Object %(obj)s doesn't have the field \"%(field)s\" required for populating notification schema key \"%(key)s\"", IronicError);
export const NotificationSchemaObjectError = defineError('NotificationSchemaObjectError', 500, "Expected object %(obj)s when populating notification payload but got object %(source)s", IronicError);
export const OperationNotPermitted = defineError('OperationNotPermitted', 403, "Operation not permitted.", NotAuthorized);
export const PasswordFileFailedToCreate = defineError('PasswordFileFailedToCreate', 500, "Failed to create the password file. %(error)s", IronicError);
export const PatchError = defineError('PatchError', 400, "Couldn't apply patch '%(patch)s'. Reason: %(reason)s", Invalid);
export const PathNotFound = defineError('PathNotFound', 500, "Path %(dir)s does not exist.", IronicError);
export const PortAlreadyExists = defineError('PortAlreadyExists', 409, "A port with UUID %(uuid)s already exists.", Conflict);
export const PortDuplicateName = defineError('PortDuplicateName', 409, "A port with name %(name)s already exists.", Conflict);
export const PortNotFound = defineError('PortNotFound', 404, "Port %(port)s could not be found.", NotFound);
export const PortgroupAlreadyExists = defineError('PortgroupAlreadyExists', 409, "A portgroup with UUID %(uuid)s already exists.", Conflict);
export const PortgroupDuplicateName = defineError('PortgroupDuplicateName', 409, "A portgroup with name %(name)s already exists.", Conflict);
export const PortgroupMACAlreadyExists = defineError('PortgroupMACAlreadyExists', 409, "A portgroup with MAC address %(mac)s already exists.", Conflict);
export const PortgroupNotEmpty = defineError('PortgroupNotEmpty', 400, "Cannot complete the requested action because portgroup %(portgroup)s contains ports.", Invalid);
export const PortgroupNotFound = defineError('PortgroupNotFound', 404, "Portgroup %(portgroup)s could not be found.", NotFound);
export const PortgroupPhysnetInconsistent = defineError('PortgroupPhysnetInconsistent', 500, "Port group %(portgroup)s has member ports with inconsistent physical networks (%(physical_networks)s). All ports in a port group must have the same physical network.", IronicError);
export const PowerStateFailure = defineError('PowerStateFailure', 409, "Failed to set node power state to %(pstate)s.", InvalidState);
export const RedfishError = defineError('RedfishError', 500, "Redfish exception occurred. Error: %(error)s", DriverOperationError);
export const RedfishConnectionError = defineError('RedfishConnectionError', 500, "Redfish connection failed for node %(node)s: %(error)s", RedfishError);
export const RunbookAlreadyExists = defineError('RunbookAlreadyExists', 409, "A runbook with UUID %(uuid)s already exists.", Conflict);
export const RunbookDuplicateName = defineError('RunbookDuplicateName', 409, "A runbook with name %(name)s already exists.", Conflict);
export const RunbookNotFound = defineError('RunbookNotFound', 404, "Runbook %(runbook)s could not be found.", NotFound);
// The ssh driver's exceptions, which Ironic dropped with the driver (Pike); ironic-ts adds the reason.
export const SSHCommandFailed = defineError('SSHCommandFailed', 500, "Failed to execute command via SSH: %(cmd)s.", IronicError);
export const SSHConnectFailed = defineError('SSHConnectFailed', 500, "Failed to establish SSH connection to host %(host)s: %(reason)s", IronicError);
export const SNMPFailure = defineError('SNMPFailure', 500, "SNMP operation '%(operation)s' failed: %(error)s", DriverOperationError);
export const ServiceUnavailable = defineError('ServiceUnavailable', 500, "Connection failed", IronicError);
export const StepNotAllowed = defineError('StepNotAllowed', 400, "%(step_type)s step '%(step)s' is not allowed. Disallowed by operator configuration [api]disallow_%(step_type)s_steps.", Invalid);
export const StorageError = defineError('StorageError', 500, "Storage operation failure.", IronicError);
export const SwiftOperationError = defineError('SwiftOperationError', 500, "Swift operation '%(operation)s' failed: %(error)s", IronicError);
export const SwiftObjectNotFoundError = defineError('SwiftObjectNotFoundError', 500, "Swift object %(obj)s from container %(container)s not found. Operation '%(operation)s' failed.", SwiftOperationError);
export const SwiftObjectStillExists = defineError('SwiftObjectStillExists', 500, "Clean up failed for swift object %(obj)s during deletion of node %(node)s.", IronicError);
export const Unauthorized = defineError('Unauthorized', 500, "An unknown exception occurred.", IronicError);
export const UnsupportedDriverExtension = defineError('UnsupportedDriverExtension', 400, "Driver %(driver)s does not support %(extension)s (disabled or not implemented).", Invalid);
export const UnsupportedHardwareFeature = defineError('UnsupportedHardwareFeature', 400, "Node %(node)s hardware does not support feature %(feature)s, which is required based upon the requested configuration.", Invalid);
export const VendorPassthruException = defineError('VendorPassthruException', 500, "An unknown exception occurred.", IronicError);
export const VifAlreadyAttached = defineError('VifAlreadyAttached', 409, "Unable to attach VIF because VIF %(vif)s is already attached to Ironic %(object_type)s %(object_uuid)s", Conflict);
export const VifInvalidForAttach = defineError('VifInvalidForAttach', 409, "Unable to attach VIF %(vif)s to node %(node)s. Reason: %(reason)s", Conflict);
export const VifNotAttached = defineError('VifNotAttached', 400, "Unable to detach VIF %(vif)s from node %(node)s because it is not attached to it.", Invalid);
export const VolumeConnectorAlreadyExists = defineError('VolumeConnectorAlreadyExists', 409, "A volume connector with UUID %(uuid)s already exists.", Conflict);
export const VolumeConnectorNotFound = defineError('VolumeConnectorNotFound', 404, "Volume connector %(connector)s could not be found.", NotFound);
export const VolumeConnectorTypeAndIdAlreadyExists = defineError('VolumeConnectorTypeAndIdAlreadyExists', 409, "A volume connector with type %(type)s and connector ID %(connector_id)s already exists.", Conflict);
export const VolumeTargetAlreadyExists = defineError('VolumeTargetAlreadyExists', 409, "A volume target with UUID %(uuid)s already exists.", Conflict);
export const VolumeTargetBootIndexAlreadyExists = defineError('VolumeTargetBootIndexAlreadyExists', 409, "A volume target with boot index '%(boot_index)s' for the same node already exists.", Conflict);
export const VolumeTargetNotFound = defineError('VolumeTargetNotFound', 404, "Volume target %(target)s could not be found.", NotFound);
/** Python's ValueError from an Ironic object's non-nullable field, a 500 in Ironic: a 400 here. */
export const ObjectFieldError = defineError('ValueError', 400, 'Field cannot be None');
export const XClarityError = defineError('XClarityError', 500, "XClarity exception occurred. Error: %(error)s", IronicError);

/**
 * Errors Ironic raises through webob (routing, version negotiation, body limits). They render as
 * `{"code", "title", "description"}` inside error_message rather than as a fault.
 */
export class HttpError extends Error {
  constructor(
    readonly code: number,
    readonly title: string,
    readonly description = '',
    readonly headers: Record<string, string> = {},
    /** Raised by webob or routing, before Ironic's hooks add the request id and version headers. */
    readonly beforeHooks = true,
  ) {
    super(description || title);
    this.name = 'HttpError';
  }
}

export const httpNotFound = (description = ''): HttpError => new HttpError(404, 'Not Found', description);
export const httpNotAcceptable = (description: string, headers: Record<string, string> = {}): HttpError =>
  new HttpError(406, 'Not Acceptable', description, headers);
export const httpBadRequest = (description: string): HttpError => new HttpError(400, 'Bad Request', description);
export const httpMethodNotAllowed = (allow: string[]): HttpError =>
  new HttpError(405, 'Method Not Allowed', '', { Allow: allow.join(', ') });
/** An ironic-ts limit (Ironic has none): answered after version negotiation, with its headers. */
export const httpTooLarge = (description: string): HttpError =>
  new HttpError(413, 'Request Entity Too Large', description, {}, false);

/** Ironic's ClientSideError: a message with an explicit status (400 unless told), raised by the API. */
export class ClientSideError extends IronicError {
  override readonly kind: string = 'ClientSideError';
  override readonly code: number;
  constructor(message: string, code = 400) {
    super(message);
    this.code = code;
    this.name = 'ClientSideError';
  }
}

/** Ironic's InvalidInput (a ClientSideError): "Invalid input for field/attribute F. Value: 'V'. MSG". */
export class InvalidInput extends ClientSideError {
  override readonly kind = 'InvalidInput';
  constructor(fieldname: string, value: string, msg = '') {
    super(`Invalid input for field/attribute ${fieldname}. Value: '${value}'. ${msg}`);
    this.name = 'InvalidInput';
  }
}
